/**
 * Shared types of skewline. Every primitive is stored as plain `Float64Array`s so the
 * kernels can read it without conversion.
 */
export {};
