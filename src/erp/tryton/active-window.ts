import { z } from 'zod';
import { DateValue, dateOf } from './codec.ts';
import type { TrytonModels } from './models.ts';

/**
 * Whether an account is active, as Tryton 6.0 computes it (account/common.py,
 * ActivePeriodMixin.get_active): its start and end dates meet the fiscal year of today, or today
 * when no fiscal year holds it. Tryton computes the field with one fiscal-year search per account;
 * here the fiscal year is read once per company and the dates are compared locally.
 */

export interface ActiveWindow {
  from: string;
  to: string;
}

const FiscalYear = z.object({ start_date: DateValue, end_date: DateValue });

/** Today's date as Tryton's client would send it (UTC; a company's time zone may differ by a day). */
const today = () => new Date().toISOString().slice(0, 10);

/** The fiscal year of today in the company `m` works in. */
export async function activeWindow(m: TrytonModels, companyId: number): Promise<ActiveWindow> {
  const day = today();
  const [year] = await m.searchRead(
    'account.fiscalyear',
    [
      ['company', '=', companyId],
      ['start_date', '<=', dateOf(day)],
      ['end_date', '>=', dateOf(day)],
    ],
    ['start_date', 'end_date'],
    FiscalYear,
    { limit: 1 },
  );
  return year ? { from: year.start_date, to: year.end_date } : { from: day, to: day };
}

export function isActive(
  account: { start_date: string | null; end_date: string | null },
  window: ActiveWindow,
): boolean {
  const start = account.start_date ?? '0000-01-01';
  const end = account.end_date ?? '9999-12-31';
  const { from, to } = window;
  return (start <= to && to <= end) || (start <= from && from <= end) || (from <= start && end <= to);
}
