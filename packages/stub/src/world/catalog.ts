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

/**
 * Where each merchant (same order as MERCHANTS) sells from: card acceptor location
 * (docs/platform.md F23 `merchant_location`, null for online-only sellers), whether the card is
 * present, and whether spend there belongs to a trip (`trip_id`, `trip_name`).
 */
export const MERCHANT_FACTS: ReadonlyArray<{
  location: { city: string; country: string; postal_code: string | null; state: string | null } | null;
  /** Merchant category code (ISO 18245), described in MCC_DESCRIPTIONS. */
  mcc: string;
  cardPresent: boolean;
  travel: boolean;
}> = [
  { location: null, mcc: '4816', cardPresent: false, travel: false },
  {
    location: { city: 'OAKLAND', country: 'USA', postal_code: '94607', state: 'CA' },
    mcc: '5814',
    cardPresent: true,
    travel: false,
  },
  {
    location: { city: 'ATLANTA', country: 'USA', postal_code: '30320', state: 'GA' },
    mcc: '4511',
    cardPresent: false,
    travel: true,
  },
  {
    location: { city: 'SAN FRANCISCO', country: 'USA', postal_code: '94158', state: 'CA' },
    mcc: '4121',
    cardPresent: false,
    travel: true,
  },
  {
    location: { city: 'NEW YORK', country: 'USA', postal_code: '10011', state: 'NY' },
    mcc: '6513',
    cardPresent: false,
    travel: false,
  },
  {
    location: { city: 'BOSTON', country: 'USA', postal_code: '02110', state: 'MA' },
    mcc: '5943',
    cardPresent: true,
    travel: false,
  },
  { location: null, mcc: '5734', cardPresent: false, travel: false },
  { location: null, mcc: '5734', cardPresent: false, travel: false },
  {
    location: { city: 'BETHESDA', country: 'USA', postal_code: '20817', state: 'MD' },
    mcc: '7011',
    cardPresent: true,
    travel: true,
  },
  {
    location: { city: 'KOELN', country: 'DEU', postal_code: '50679', state: null },
    mcc: '4511',
    cardPresent: false,
    travel: true,
  },
  {
    location: { city: 'TOKYO', country: 'JPN', postal_code: '100-0005', state: null },
    mcc: '4112',
    cardPresent: true,
    travel: true,
  },
  { location: null, mcc: '5734', cardPresent: false, travel: false },
  { location: null, mcc: '4816', cardPresent: false, travel: false },
  {
    location: { city: 'SAN FRANCISCO', country: 'USA', postal_code: '94105', state: 'CA' },
    mcc: '5734',
    cardPresent: false,
    travel: false,
  },
  {
    location: { city: 'MEMPHIS', country: 'USA', postal_code: '38125', state: 'TN' },
    mcc: '4215',
    cardPresent: false,
    travel: false,
  },
  {
    location: { city: 'ATLANTA', country: 'USA', postal_code: '30339', state: 'GA' },
    mcc: '5200',
    cardPresent: true,
    travel: false,
  },
  {
    location: { city: 'SEATTLE', country: 'USA', postal_code: '98134', state: 'WA' },
    mcc: '5814',
    cardPresent: true,
    travel: false,
  },
  {
    location: { city: 'KUWAIT CITY', country: 'KWT', postal_code: null, state: null },
    mcc: '5651',
    cardPresent: true,
    travel: false,
  },
  {
    location: { city: 'LONDON', country: 'GBR', postal_code: 'EC1A 1BB', state: null },
    mcc: '5411',
    cardPresent: true,
    travel: false,
  },
  {
    location: { city: 'MONTREAL', country: 'CAN', postal_code: 'H4Y 1H1', state: 'QC' },
    mcc: '4511',
    cardPresent: false,
    travel: true,
  },
];

export const MCC_DESCRIPTIONS: Record<string, string> = {
  '4112': 'Passenger Railways',
  '4121': 'Taxicabs and Limousines',
  '4215': 'Courier Services',
  '4511': 'Airlines, Air Carriers',
  '4816': 'Computer Network/Information Services',
  '5200': 'Home Supply Warehouse Stores',
  '5411': 'Grocery Stores, Supermarkets',
  '5651': 'Family Clothing Stores',
  '5734': 'Computer Software Stores',
  '5814': 'Fast Food Restaurants',
  '5943': 'Stationery, Office, and School Supply Stores',
  '6513': 'Real Estate Agents and Managers - Rentals',
  '7011': 'Hotels, Motels, and Resorts',
};

export const TRIP_NAMES = [
  'Customer summit',
  'Quarterly offsite',
  'Sales kickoff',
  'Partner visit',
  'Trip to Europe',
];

/** Published spend category names by `sk_category_id` (1..44; 22 is not in the published list). */
export const SK_CATEGORY_NAMES: Record<number, string> = {
  1: 'Pet',
  2: 'Other',
  3: 'Office',
  4: 'Airlines',
  5: 'Car rental',
  6: 'Lodging',
  7: 'Travel miscellaneous',
  8: 'Taxi and rideshare',
  9: 'Freight, moving and delivery services',
  10: 'Shipping',
  11: 'Utilities',
  12: 'Office supplies and cleaning',
  13: 'General merchandise',
  14: 'Electronics',
  15: 'Clothing',
  16: 'Books and newspapers',
  17: 'Supermarkets and grocery stores',
  18: 'Fuel and gas',
  19: 'Restaurants',
  20: 'Alcohol and bars',
  21: 'Medical',
  23: 'Fees and financial institutions',
  24: 'Entertainment',
  25: 'Professional services',
  26: 'Taxes and tax preparation',
  27: 'Advertising',
  28: 'Parking',
  29: 'Car services',
  30: 'Gambling',
  31: 'Clubs and memberships',
  32: 'Legal',
  33: 'Education',
  34: 'Charitable donations',
  35: 'Political organizations',
  36: 'Religious organizations',
  37: 'Fines',
  38: 'Government services',
  39: 'Intra-company purchases',
  40: 'SaaS / Software',
  41: 'Cloud computing',
  42: 'Streaming services',
  43: 'Internet and phone',
  44: 'Insurance',
};

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
