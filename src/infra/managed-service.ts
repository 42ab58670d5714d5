/** A server ledgersync started for itself (or attached to), and how to stop it. */
export interface ManagedService {
  url: string;
  /** True when this process started it and so must stop it. */
  owned: boolean;
  stop(): Promise<void>;
}
