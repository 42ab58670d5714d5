import type { Job } from 'bullmq';

/** A BullMQ job as a processor sees it, for calling a processor directly: the progress it reports is kept. */
export function fakeJob(data: unknown): { job: Job; progress: unknown[] } {
  const progress: unknown[] = [];
  const job = {
    id: 'job-1',
    data,
    updateProgress: async (value: unknown) => {
      progress.push(value);
    },
  } as unknown as Job;
  return { job, progress };
}
