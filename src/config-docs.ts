import { envSchema } from './config.ts';

interface Entry {
  name: string;
  defaultValue: string | undefined;
  description: string;
}

/** zod 4 keeps the default on the wrapping schema's def; unwrap until it is found. */
function defaultOf(schema: unknown): string | undefined {
  let current = schema as {
    def?: { type?: string; defaultValue?: unknown; innerType?: unknown; in?: unknown };
  };
  for (let i = 0; i < 6 && current?.def; i++) {
    if (current.def.type === 'default') return String(current.def.defaultValue);
    current = (current.def.innerType ?? current.def.in) as typeof current;
  }
  return undefined;
}

function configEntries(): Entry[] {
  return Object.entries(envSchema.shape).map(([name, schema]) => ({
    name,
    defaultValue: defaultOf(schema),
    description: schema.description ?? '',
  }));
}

/** The README's configuration table (a test keeps the README equal to this). */
export function configTable(): string {
  const rows = configEntries().map(
    (e) =>
      `| \`${e.name}\` | ${e.defaultValue === undefined ? '—' : `\`${e.defaultValue}\``} | ${e.description} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}

/** The shipped .env.example (a test keeps the file equal to this). */
export function envExample(): string {
  const lines = [
    '# ledgersync configuration. Every variable is optional unless its comment says otherwise.',
    '',
  ];
  for (const e of configEntries()) {
    lines.push(`# ${e.description}`);
    lines.push(`# ${e.name}=${e.defaultValue ?? ''}`);
    lines.push('');
  }
  return lines.join('\n');
}
