/**
 * `convo-sdk/conformance`: the contract checks of API v1 that need no scripted model, run against a live
 * service (`runConformance`, and the `convo-conformance` command), reported by spec section.
 *
 * @module
 */
export type { Tokens } from './context.js';
export { formatJunit } from './junit.js';
export { formatReport } from './report.js';
export { type ConformanceOptions, runConformance } from './run.js';
export type { CheckResult, ConformanceReport, Coverage, FailedRequest, Outcome } from './types.js';
