import { UnrecoverableError } from 'bullmq';
import type { z } from 'zod';
import { InvalidPayloadError, parsePayload } from '../src/queue/index.ts';

/** A payload that fails its schema is a bug upstream: the job fails at once, without retries. */
export function parseJobData<S extends z.ZodType>(schema: S, data: unknown, queue: string): z.infer<S> {
  try {
    return parsePayload(schema, data, queue);
  } catch (error) {
    if (error instanceof InvalidPayloadError) throw new UnrecoverableError(error.message);
    throw error;
  }
}
