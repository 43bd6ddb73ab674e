/** Every error class the SDK throws, in one place: `ConvoError` and its subclasses. */
import * as base from './base.js';
import { brand } from './brand.js';
import * as interaction from './interaction.js';
import * as route from './route.js';
import * as stream from './stream.js';
import * as turn from './turn.js';

export * from './base.js';
export * from './interaction.js';
export * from './route.js';
export * from './stream.js';
export * from './turn.js';

// Every class the error files export, so that `instanceof` holds across the package's copies; a class is
// branded by being exported from one of them (test/unit/error-identity.test.ts checks them all).
brand({ ...base, ...interaction, ...route, ...stream, ...turn });
