// The root layout: no JSX, so that the repository's type check covers the example as it is.
import { createElement as h, type ReactNode } from 'react';

/** The page's title. */
export const metadata = { title: 'convo-sdk: useChat on a Next.js route' };

/** The document around every page. */
export default function RootLayout(props: { children: ReactNode }): ReactNode {
  return h('html', { lang: 'en' }, h('body', null, props.children));
}
