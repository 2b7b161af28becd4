/** The absolute path of `program` on `PATH` (or in /usr/bin, /usr/sbin, /usr/local/bin), or undefined. */
export declare function findProgram(program: string): string | undefined;

/**
 * Returns the path of the program `find()` finds, installing Debian's `debianPackage` first
 * (`apt-get update`, then `apt-get install -y`) when it is missing and this process is root on a
 * system with apt-get. Otherwise throws an error that says how to install it.
 */
export declare function ensureDebianProgram(options: {
  /** How the messages name the program. */
  name: string;
  debianPackage: string;
  find: () => string | undefined;
  /** Extra arguments for `apt-get install -y`, before the package. */
  installArgs?: string[];
  log: (line: string) => void;
}): string;
