import { z } from 'zod';
import type { TrytonModels } from './models.ts';
import { INVOICE_FIELDS, InvoiceRow, MoveLineRow } from './rows.ts';

/**
 * Ties a payment move to its supplier invoice the way Tryton's Pay wizard does: the payable line
 * joins the invoice's payment lines (so its amount to pay drops), and once nothing is left to pay
 * the invoice's lines are reconciled, which marks it paid. Both steps check first, so running
 * them again after an interruption changes nothing that is already done.
 */

const LINE_FIELDS = ['account', 'party', 'debit', 'credit', 'reconciliation'];

async function invoiceOf(m: TrytonModels, invoiceId: number): Promise<InvoiceRow | undefined> {
  const [invoice] = await m.searchRead(
    'account.invoice',
    [['id', '=', invoiceId]],
    INVOICE_FIELDS,
    InvoiceRow,
  );
  return invoice;
}

/** Adds the payment move's payable line to the invoice's payment lines (once). */
export async function linkPayment(m: TrytonModels, moveId: number, invoiceId: number): Promise<void> {
  const invoice = await invoiceOf(m, invoiceId);
  if (!invoice) return;
  const lines = await m.searchRead('account.move.line', [['move', '=', moveId]], LINE_FIELDS, MoveLineRow);
  const payable = lines.find((l) => l.account === invoice.account && l.party === invoice.party);
  if (!payable || invoice.payment_lines.includes(payable.id)) return;
  await m.write('account.invoice', [invoiceId], { payment_lines: [['add', [payable.id]]] });
}

const Reconciled = z.object({ id: z.number().int(), reconciliation: z.number().int().nullable() });

/** Reconciles a fully paid invoice's lines, so Tryton marks it paid. */
export async function settleInvoice(m: TrytonModels, invoiceId: number): Promise<void> {
  const invoice = await invoiceOf(m, invoiceId);
  if (invoice?.state !== 'posted' || Number(invoice.amount_to_pay) !== 0) return;
  const ids = [...invoice.lines_to_pay, ...invoice.payment_lines];
  const lines = await m.searchRead('account.move.line', [['id', 'in', ids]], ['reconciliation'], Reconciled);
  const open = lines.filter((l) => l.reconciliation === null).map((l) => l.id);
  if (open.length < 2) return;
  await m.wizard('account.move.reconcile_lines', (execute) => execute('start'), {
    model: 'account.move.line',
    ids: open,
  });
}
