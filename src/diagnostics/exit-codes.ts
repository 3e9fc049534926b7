/**
 * The CLI's exit codes, the same for every command (documented in the README):
 * 0 the input is clean, 1 the input was read and has findings, 2 the input or the command line is
 * unusable (nothing was written), 3 an internal error (a bug: please report it).
 */
export const ExitCode = {
  Clean: 0,
  Findings: 1,
  Unusable: 2,
  Internal: 3,
} as const;

export type ExitCodeValue = (typeof ExitCode)[keyof typeof ExitCode];
