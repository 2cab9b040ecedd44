/** The plans (Profile A); the server checks them, this only fills the select. */
export const PLANS = [
  { name: 'free', label: 'Free', daily: 30, phones: 2, price: '€0' },
  { name: 'starter', label: 'Starter', daily: 1_000, phones: 2, price: '€4' },
  { name: 'basic', label: 'Basic', daily: 2_500, phones: 3, price: '€6' },
  { name: 'standard', label: 'Standard', daily: 5_000, phones: 5, price: '€9' },
  { name: 'pro', label: 'Pro', daily: 10_000, phones: 10, price: '€19' },
  { name: 'business', label: 'Business', daily: 30_000, phones: 20, price: '€39' },
  { name: 'enterprise', label: 'Enterprise', daily: 50_000, phones: 50, price: '€79+' },
] as const;

export function planOptionLabel(plan: (typeof PLANS)[number]): string {
  return `${plan.label} — ${plan.daily.toLocaleString('en-US')} SMS/day, ${plan.phones} phones, ${plan.price}/month`;
}
