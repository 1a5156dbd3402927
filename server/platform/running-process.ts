/**
 * Whether a process with this pid runs, asked of the system (signal 0 sends nothing): how a lock
 * or a temporary file that names its maker's pid tells one left behind by a process that is gone.
 * EPERM means it runs, as another user.
 */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
