/**
 * A small, strict command-line parser for the skewline CLI: long options with `--name value`
 * or `--name=value`, short aliases, boolean flags with a `--no-` form, `--` to end options.
 * Anything it does not know is a {@link UsageError} (the CLI prints it and exits with 2).
 */

/** A mistake in how the command was called: an unknown option, a missing or bad value. Exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** One option a command accepts. */
export interface OptionSpec {
  /** The long name without dashes, e.g. `format`. */
  readonly name: string;
  /** A one-letter alias without the dash, e.g. `o`. */
  readonly short?: string;
  /** `flag`: no value (also accepts `--no-name`); `value`: takes the next argument or `=value`. */
  readonly type: 'flag' | 'value';
  /** For value options, the allowed values (anything else is a UsageError naming them). */
  readonly choices?: readonly string[];
}

/** The parsed command line: option values by long name, then the positional arguments in order. */
export interface ParsedArgs {
  /** `true`/`false` for flags, the string for value options; absent when not given. */
  readonly options: Map<string, string | boolean>;
  readonly positionals: string[];
}

/**
 * Parses `argv` (without the node binary, script and command name) against `specs`.
 * A lone `-` is a positional (it means stdin); `--` makes every later argument positional.
 * A repeated option keeps its last value.
 * @param command how to name the command in error messages, e.g. `skewline closest`.
 * @throws UsageError on an unknown option, a missing value, a value outside `choices`,
 * a value given to a flag, or a `--no-` prefix on a value option.
 */
export function parseArgs(argv: readonly string[], specs: readonly OptionSpec[], command: string): ParsedArgs {
  const byLong = new Map(specs.map((s) => [s.name, s]));
  const byShort = new Map(specs.filter((s) => s.short !== undefined).map((s) => [s.short as string, s]));
  const options = new Map<string, string | boolean>();
  const positionals: string[] = [];
  const hint = `(see '${command} --help')`;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg === '-' || !arg.startsWith('-')) {
      positionals.push(arg);
      continue;
    }
    let spec: OptionSpec | undefined;
    let inline: string | undefined;
    let negated = false;
    let shown: string;
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
      if (eq >= 0) inline = arg.slice(eq + 1);
      shown = `--${name}`;
      spec = byLong.get(name);
      if (spec === undefined && name.startsWith('no-')) {
        spec = byLong.get(name.slice(3));
        if (spec !== undefined && spec.type !== 'flag') {
          throw new UsageError(`${command}: option '--${spec.name}' takes a value and has no '--no-' form ${hint}`);
        }
        negated = spec !== undefined;
      }
    } else {
      // -o FILE or -oFILE
      spec = byShort.get(arg[1]);
      shown = arg.slice(0, 2);
      if (spec !== undefined && arg.length > 2) inline = arg.slice(2);
    }
    if (spec === undefined) throw new UsageError(`${command}: unknown option '${shown}' ${hint}`);
    if (spec.type === 'flag') {
      if (inline !== undefined) throw new UsageError(`${command}: option '${shown}' takes no value ${hint}`);
      options.set(spec.name, !negated);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      if (i + 1 >= argv.length) throw new UsageError(`${command}: option '${shown}' needs a value ${hint}`);
      value = argv[++i];
    }
    if (spec.choices !== undefined && !spec.choices.includes(value)) {
      throw new UsageError(
        `${command}: option '${shown}' must be one of ${spec.choices.join(', ')} (got '${value}') ${hint}`,
      );
    }
    options.set(spec.name, value);
  }
  return { options, positionals };
}
