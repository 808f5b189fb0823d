/** An integer with thousands separators: `4000` is `4,000` (the same on every locale). */
export function formatCount(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
