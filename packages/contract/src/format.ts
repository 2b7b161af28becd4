/**
 * A whole number with comma thousands separators, as `toLocaleString('en-US')` writes it, without
 * Intl: the page's first Intl call loads locale data for about 40 ms on the main thread (measured
 * by the browser benchmark), and the CLI's for about 8 ms of every run (measured with
 * `--cpu-prof`). The page and the CLI write every count with it, so both say "4,815".
 */
export function formatCount(count: number): string {
  const rounded = Math.round(count);
  const digits = String(Math.abs(rounded)).replace(/\B(?=(\d{3})+$)/g, ',');
  return rounded < 0 ? `-${digits}` : digits;
}
