// Platform object → ERP write: the mapping of each kind's objects, and the fields it reads. Code
// outside this folder imports it through this file.
export { freeText } from './free-text.ts';
export { MappingProblem } from './mapping-problem.ts';
export {
  mapBill,
  mapBillPayment,
  mapCashback,
  mapReimbursement,
  mapTransaction,
  mapTransfer,
} from './objects.ts';
