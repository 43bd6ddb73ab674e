/** Every error class the SDK throws, in one place: `ConvoError` and its subclasses. */
export * from './base.js';
export * from './interaction.js';
export * from './stream.js';
export * from './turn.js';
