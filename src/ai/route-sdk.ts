/** The AI SDK's module, loaded once by the first use. */
let loading: Promise<typeof import('ai')> | undefined;

/**
 * The AI SDK (`ai`), loaded on first use rather than with `convo-sdk/ai`: it is an optional peer, and the
 * entry loads without it for what needs none of its values (the transport, the mapping).
 */
export const aiSdk = (): Promise<typeof import('ai')> => {
  loading ??= import('ai');
  return loading;
};
