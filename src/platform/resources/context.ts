import { z } from 'zod';
import { issuesText } from '../../zod-issues.ts';
import { ValidationError } from '../errors.ts';
import type { PlatformRequest, PlatformResponse, QueryParams } from '../http-transport.ts';
import type { IdempotentResult } from '../idempotent-send.ts';
import { Listing } from '../pagination.ts';
import { type ItemResult, parseBody, parseItems, uploadAnswerOf } from '../parse.ts';

/** What every resource group is built on: the transport, with and without an idempotency key. */
export interface ResourceContext {
  send(request: PlatformRequest): Promise<PlatformResponse>;
  sendIdempotent(key: string, request: PlatformRequest): Promise<IdempotentResult>;
}

/** Query filters of a list as callers give them: booleans may be true/false, paging is ours. */
export type Filters<Q> = {
  [K in Exclude<keyof Q, 'start' | 'page_size'>]?: Q[K] extends 'true' | 'false' | undefined
    ? boolean | 'true' | 'false'
    : Q[K];
} & { page_size?: number };

/** `accounting_connection_id` targets an inactive connection (F8-F13; default: the active one). */
export type ConnectionTarget = { accounting_connection_id?: string };

/** An upload's answer: its connection and each item parsed on its own. */
export interface Uploaded<T> {
  accountingConnectionId: string | null;
  items: ItemResult<T>[];
}

/**
 * Checks a request body against its schema before it costs a request and a permit. The body is
 * sent as the caller built it (so a frozen body stays byte-identical across retries).
 */
export function checkBody<S extends z.ZodType>(schema: S, body: z.input<S>, what: string): z.input<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return body;
  throw new ValidationError({
    status: null,
    code: null,
    message: `${what}: request not sent, it is invalid: ${issuesText(parsed.error, { limit: 5 })}`,
    traceId: null,
    retryable: false,
    additionalInfo: {
      issues: parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
    },
  });
}

export function listing<T>(
  ctx: ResourceContext,
  path: string,
  query: QueryParams,
  item: z.ZodType<T>,
  what: string,
): Listing<T> {
  return new Listing({ send: (request) => ctx.send(request), path, query, item, what });
}

/** Sends and parses a single-object answer. */
export async function fetchOne<T>(
  ctx: ResourceContext,
  request: PlatformRequest,
  schema: z.ZodType<T>,
): Promise<T> {
  const response = await ctx.send(request);
  return parseBody(schema, response.body, `${request.method} ${request.path}`, response.traceId);
}

/**
 * Sends an upload and parses its list (under `key`) item by item. An answer without the list
 * (`{uploaded: [ids]}` or `{}`, docs/platform.md F41) confirms no item: the caller settles what
 * it sent by reading the collection again.
 */
export async function upload<T>(
  ctx: ResourceContext,
  path: string,
  body: unknown,
  key: string,
  item: z.ZodType<T>,
  what: string,
): Promise<Uploaded<T>> {
  const response = await ctx.send({ method: 'POST', path, body });
  const envelope = parseBody(uploadAnswerOf(key), response.body, `POST ${path}`, response.traceId) as Record<
    string,
    unknown
  >;
  const connectionId = envelope.accounting_connection_id;
  return {
    accountingConnectionId: typeof connectionId === 'string' ? connectionId : null,
    items: parseItems(item, (envelope[key] as unknown[] | null | undefined) ?? [], what),
  };
}

/**
 * Sends a one-item create and reads the item it answers, or null when the answer does not carry
 * it (docs/platform.md F41: the published field answer requires neither `id` nor `svc_id`): the
 * caller settles the item by reading the collection again. An answer that is not an object at all
 * is an UnexpectedResponseError, as for any read.
 */
export async function createOne<T>(
  ctx: ResourceContext,
  request: PlatformRequest,
  schema: z.ZodType<T>,
): Promise<T | null> {
  const response = await ctx.send(request);
  const what = `${request.method} ${request.path}`;
  const answer = parseBody(z.looseObject({}), response.body, what, response.traceId);
  const parsed = schema.safeParse(answer);
  return parsed.success ? parsed.data : null;
}

/** Path segment for an id: never lets an id change the path's shape. */
export function segment(id: string): string {
  return encodeURIComponent(id);
}

/**
 * A write body with the target connection in it: PATCH, PUT and DELETE carry
 * `accounting_connection_id` in the JSON body, not the query (docs/platform.md F29).
 */
export function withTarget<B extends object>(
  body: B,
  target: ConnectionTarget | undefined,
): B & ConnectionTarget {
  return target?.accounting_connection_id
    ? { ...body, accounting_connection_id: target.accounting_connection_id }
    : body;
}
