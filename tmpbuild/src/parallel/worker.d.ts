/** A distance job: pairs [start, end) of a Float64Array over `input`, results into `output`. */
export interface Job {
    kind?: 'distances';
    input: SharedArrayBuffer;
    byteOffset: number;
    length: number;
    dim: number;
    start: number;
    end: number;
    output: SharedArrayBuffer;
}
/** A chain as shared memory: what the search needs of a PreparedChain. */
export interface SharedChain {
    P: SharedArrayBuffer;
    dim: number;
    m: number;
    partner: SharedArrayBuffer | null;
    dead: SharedArrayBuffer | null;
    start: SharedArrayBuffer;
}
/** A chain job: claim work items through `counter` until none are left. */
export interface ChainJob {
    kind: 'chain';
    A: SharedChain;
    B: SharedChain | null;
    tau: number;
    counter: SharedArrayBuffer;
    want: number;
}
