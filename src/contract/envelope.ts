import * as z from 'zod/mini';
import { lazy } from './lazy.js';

/** `retry_action` of an outage: `retry` (the request never left) or `check_status` (do not resend). */
export type RetryAction = 'retry' | 'check_status' | (string & {});

/** Outage details: `meta.error_details` of an error response, `details` of `message.error` (section 6). */
export const errorDetailsSchema = lazy(() =>
  z.looseObject({
    schema_version: z.optional(z.int()),
    service: z.optional(z.string()),
    service_code: z.optional(z.string()),
    dependency: z.optional(z.string()),
    operation: z.optional(z.string()),
    failure_kind: z.optional(z.string()),
    operation_outcome: z.optional(z.string()),
    retryable: z.optional(z.boolean()),
    retry_action: z.optional(z.string() as z.ZodMiniType<RetryAction>),
    request_id: z.optional(z.string()),
  }),
);
/** Outage details (`errorDetailsSchema`'s schema). */
export const ErrorDetailsSchema = /* @__PURE__ */ errorDetailsSchema();
/** Outage details (section 6, `details` fields); every field may be absent. */
export interface ErrorDetails {
  /** Version of this shape. */
  schema_version?: number | undefined;
  /** The service that failed. */
  service?: string | undefined;
  /** Its own code for the failure. */
  service_code?: string | undefined;
  /** The dependency that failed. */
  dependency?: string | undefined;
  /** The operation that failed. */
  operation?: string | undefined;
  /** What kind of failure it was. */
  failure_kind?: string | undefined;
  /** What became of the operation. */
  operation_outcome?: string | undefined;
  /** Whether repeating may work. */
  retryable?: boolean | undefined;
  /** `retry` (the request never left) or `check_status` (do not resend). */
  retry_action?: RetryAction | undefined;
  /** The failed request's id. */
  request_id?: string | undefined;
}

/** `meta` of a successful response (2.1); `page`, `size` and `total` only on lists. */
const metaSchema = lazy(() =>
  z.looseObject({
    request_id: z.string(),
    page: z.optional(z.int()),
    size: z.optional(z.int()),
    total: z.optional(z.int()),
  }),
);
/** `meta` of a successful response (`metaSchema`'s schema). */
export const MetaSchema = /* @__PURE__ */ metaSchema();
/** `meta` of a successful response (2.1). */
export interface Meta {
  /** The request's id. */
  request_id: string;
  /** Lists: the page number. */
  page?: number | undefined;
  /** Lists: the page size. */
  size?: number | undefined;
  /** Lists: how many items there are in all. */
  total?: number | undefined;
}

/** The envelope of every successful response (2.1); `data` is validated by the endpoint's own schema. */
export const envelopeSchema = lazy(() =>
  z.looseObject({
    status: z.literal('success'),
    message: z.string(),
    message_code: z.string(),
    data: z.unknown(),
    meta: metaSchema(),
  }),
);
/** The envelope of every successful response (`envelopeSchema`'s schema). */
export const EnvelopeSchema = /* @__PURE__ */ envelopeSchema();

/** The body of a failed response: `message_code` always, the rest when the service sends it (7). */
export const errorBodySchema = lazy(() =>
  z.looseObject({
    status: z.optional(z.string()),
    message: z.optional(z.string()),
    message_code: z.string(),
    data: z.optional(z.unknown()),
    meta: z.optional(
      z.looseObject({
        request_id: z.optional(z.string()),
        error_details: z.optional(errorDetailsSchema()),
      }),
    ),
  }),
);
/** The body of a failed response (`errorBodySchema`'s schema). */
export const ErrorBodySchema = /* @__PURE__ */ errorBodySchema();
