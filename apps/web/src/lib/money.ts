import { formatCount } from './format';

/**
 * The page's money arithmetic over the contract's rules, in integer cents so no float ever decides
 * a charge. The server checks every amount again; these only drive what the page shows and asks for.
 */

/** Dollars as the API expects them in request bodies (`amount`, `actualAmount`). */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** Display form: `$12.30`, always two decimals (seed section 9). */
export function formatUsd(cents: number): string {
  const whole = Math.round(cents);
  const [dollars, fraction] = (Math.abs(whole) / 100).toFixed(2).split('.');
  return `${whole < 0 ? '-' : ''}$${formatCount(Number(dollars))}.${fraction}`;
}
