/**
 * Fixed vocabularies of the generated world: merchants, people, currencies with realistic
 * minor-unit scales, and the small default chart of accounts used when neither the seed body nor
 * the active connection provides one.
 */

export const MERCHANTS = [
  'Amazon Web Services',
  'Blue Bottle Coffee',
  'Delta Air Lines',
  'Uber',
  'WeWork',
  'Staples',
  'Figma',
  'GitHub',
  'Marriott',
  'Lufthansa',
  'Shinkansen JR East',
  'Zoom',
  'Google Cloud',
  'Salesforce',
  'FedEx',
  'Home Depot',
  'Starbucks',
  'Alshaya Kuwait',
  'Tesco',
  'Air Canada',
] as const;

export const FIRST_NAMES = ['Ada', 'Grace', 'Linus', 'Yuki', 'Omar', 'Ines', 'Priya', 'Tom', 'Lena', 'Kofi'];
export const LAST_NAMES = ['Lovelace', 'Hopper', 'Tanaka', 'Haddad', 'Garcia', 'Patel', 'Berg', 'Mensah'];
export const DEPARTMENTS = ['Engineering', 'Sales', 'Operations', 'Finance', 'Marketing'];
export const MEMOS = [
  'Team lunch',
  'Conference travel',
  'Cloud hosting',
  'Office supplies',
  'Client dinner',
  'Software subscription',
  null,
];
export const CATEGORY_NAMES = ['Software', 'Travel', 'Meals', 'Office', 'Shipping', 'Lodging', 'Other'];

export const ENTITY_NAMES = [
  'Acme Inc.',
  'Acme Europe GmbH',
  'Acme Japan KK',
  'Acme UK Ltd',
  'Acme Kuwait WLL',
  'Acme Canada Ltd',
];
/** Functional currency of entity n (cycled): USD 2, EUR 2, JPY 0, GBP 2, KWD 3, CAD 2 decimals. */
export const ENTITY_CURRENCIES = ['USD', 'EUR', 'JPY', 'GBP', 'KWD', 'CAD'];

/** Minor units per US cent, so an amount drawn in cents scales to each currency's minor unit. */
export const MINOR_PER_USD_CENT: Record<string, number> = {
  USD: 1,
  EUR: 0.92,
  GBP: 0.79,
  CAD: 1.36,
  JPY: 1.5,
  KWD: 3.07,
};

export const VENDOR_NAMES = [
  'Northwind Traders',
  'Contoso Supplies',
  'Globex Corporation',
  'Initech',
  'Umbrella Logistics',
  'Stark Industries',
  'Wayne Enterprises',
  'Tyrell Components',
  'Cyberdyne Systems',
  'Soylent Foods',
];

export interface ChartSnapshot {
  gl_accounts: string[];
  fields: Array<{ id: string; options: string[] }>;
  vendors: string[];
  tax_codes: string[];
}

export const DEFAULT_CHART: ChartSnapshot = {
  gl_accounts: ['6000', '6100', '6200', '6300', '6400', '6500'],
  fields: [{ id: 'department', options: ['ENG', 'SALES', 'OPS', 'FIN'] }],
  vendors: ['V-1001', 'V-1002', 'V-1003', 'V-1004'],
  tax_codes: ['TAX-STD', 'TAX-ZERO'],
};
