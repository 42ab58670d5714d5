/**
 * The client-credentials token (docs/platform.md F1), held in memory only. It is renewed shortly
 * before `expires_in` runs out, by one request at a time however many callers are waiting
 * (single flight), and once more when the platform says it expired (401 DEVELOPER_7028).
 */
export interface IssuedToken {
  accessToken: string;
  expiresInS: number;
}

export interface TokenCacheOptions {
  /** Renew when less than this share of the lifetime is left (default 10 %)... */
  refreshShare?: number;
  /** ...but never earlier than this before expiry (default 60 s). */
  maxEarlyMs?: number;
  now?: () => number;
}

export class TokenCache {
  private current: { token: string; renewAt: number } | null = null;
  private inFlight: Promise<string> | null = null;
  private readonly refreshShare: number;
  private readonly maxEarlyMs: number;
  private readonly now: () => number;
  private issued = 0;

  constructor(
    private readonly issue: () => Promise<IssuedToken>,
    options: TokenCacheOptions = {},
  ) {
    this.refreshShare = options.refreshShare ?? 0.1;
    this.maxEarlyMs = options.maxEarlyMs ?? 60_000;
    this.now = options.now ?? Date.now;
  }

  /** A token valid for a while yet; fetched (once for all waiting callers) when not. */
  get(): Promise<string> {
    if (this.current && this.now() < this.current.renewAt) return Promise.resolve(this.current.token);
    return this.renew();
  }

  /**
   * The platform refused `rejected` as expired. Renew unless another caller already did (then
   * its newer token is used): 20 callers refused at once still cause one token request.
   */
  replace(rejected: string): Promise<string> {
    if (this.inFlight) return this.inFlight;
    if (this.current && this.current.token !== rejected) return Promise.resolve(this.current.token);
    this.current = null;
    return this.renew();
  }

  /** Tokens issued to this cache so far (for metrics and tests). */
  get issuedCount(): number {
    return this.issued;
  }

  private renew(): Promise<string> {
    if (this.inFlight) return this.inFlight;
    const flight = this.issue()
      .then(({ accessToken, expiresInS }) => {
        const lifetimeMs = expiresInS * 1000;
        const early = Math.min(this.maxEarlyMs, lifetimeMs * this.refreshShare);
        this.current = { token: accessToken, renewAt: this.now() + lifetimeMs - early };
        this.issued++;
        return accessToken;
      })
      .finally(() => {
        if (this.inFlight === flight) this.inFlight = null;
      });
    this.inFlight = flight;
    return flight;
  }
}
