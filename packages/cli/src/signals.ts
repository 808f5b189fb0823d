/**
 * A SIGINT that comes soon after the first is the same Ctrl-C delivered twice (the terminal
 * signals the whole process group, and wrappers such as npm or pnpm forward it again), not a
 * second press asking to exit at once.
 */
export function isSecondPress(firstAt: number, now = Date.now()): boolean {
  return now - firstAt > 300;
}
