import { describe, expect, it } from 'vitest';
import {
  BACKUP_FORMAT,
  backupPath,
  ChartBackup,
  fileTimestamp,
} from '../../../../src/sync/connection-migration/backup-file.ts';

describe('the chart backup file (docs/platform.md G30: back up the chart first)', () => {
  it('is named <connection>-<timestamp>.json, the timestamp being the migration start (same file on re-run)', () => {
    const started = new Date('2025-01-06T10:00:00.123Z');
    expect(fileTimestamp(started)).toBe('20250106T100000Z');
    expect(backupPath('/tmp/backups', 'conn-1', started)).toBe('/tmp/backups/conn-1-20250106T100000Z.json');
    expect(backupPath('/tmp/b', '../x/y', started)).toBe('/tmp/b/.._x_y-20250106T100000Z.json');
  });

  it('keeps every field the platform sent for an item, and refuses a document of another format', () => {
    const document = {
      format: BACKUP_FORMAT,
      migration_id: '1',
      taken_at: '2025-01-06T10:00:00.000Z',
      connection: { id: 'c', remote_provider_name: 'ERP', connection_type: 'API', is_active: true },
      counts: { gl_accounts: 1 },
      chart: {
        gl_accounts: [{ id: 'a', svc_id: 's', is_active: true, visibility: 'HIDDEN', code: '6000' }],
        fields: [],
        vendors: [],
        tax_rates: [],
        tax_code_options: [],
        unreadable: [],
      },
    };
    expect(ChartBackup.parse(document)).toEqual(document);
    expect(ChartBackup.safeParse({ ...document, format: 'other/1' }).success).toBe(false);
  });
});
