import type { SyncType } from '../../../platform/index.ts';
import { addReport, freezeAndSend, type ReportContext, type ReportCounts } from '../../reporting/index.ts';

/**
 * A run's results on their way to the platform while it reads on: outcomes are counted as pages
 * record them, and a send (freeze what has gathered, post it) runs in turn after the one before,
 * so sends never overlap and reading never waits for one. A send that fails mid-run is kept, not
 * thrown: its batches stay frozen and the run's final send takes them.
 */
export class ResultSender {
  /** Outcomes recorded since the last freeze, counted here rather than queried after every page. */
  private gathered = 0;
  private sending: Promise<void> = Promise.resolve();
  private error: unknown = null;

  constructor(
    private readonly report: ReportContext,
    private readonly syncTypes: readonly SyncType[],
    private readonly reported: ReportCounts,
    private readonly syncRequestId?: string,
  ) {}

  /** A page recorded this many outcomes. */
  add(recorded: number): void {
    this.gathered += recorded;
  }

  /** Freezes and sends once at least `minItems` have gathered; the send runs in the background. */
  sendWhenGathered(minItems: number): void {
    if (this.gathered >= minItems) void this.send(minItems);
  }

  /** Freezes what has gathered (whole batches of at least `minItems`) and sends it, in turn. */
  send(minItems: number): Promise<void> {
    this.gathered = 0;
    const button = this.syncRequestId ? { syncRequestId: this.syncRequestId } : {};
    this.sending = this.sending.then(async () => {
      if (this.error) return;
      try {
        addReport(this.reported, await freezeAndSend(this.report, this.syncTypes, { ...button, minItems }));
      } catch (error) {
        this.error = error;
      }
    });
    return this.sending;
  }

  /** Waits for the sends under way. */
  settled(): Promise<void> {
    return this.sending;
  }

  /** The run's last send: whatever is left, after the sends under way. */
  async finish(): Promise<void> {
    await this.sending;
    const button = this.syncRequestId ? { syncRequestId: this.syncRequestId } : {};
    addReport(this.reported, await freezeAndSend(this.report, this.syncTypes, button));
    if (this.error)
      this.report.log.warn(
        { err: this.error },
        'a result batch could not be sent mid-run; it was sent at the end',
      );
  }
}
