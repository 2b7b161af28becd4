/**
 * Component tests: unmount after each test, since vitest globals are off. `findBy…` and `waitFor`
 * give up after 1 s by default, which a loaded CI machine can take for one fetch to a local fake:
 * they wait up to 30 s instead (a passing test never waits longer than it needs).
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

configure({ asyncUtilTimeout: 30_000 });

afterEach(() => {
  cleanup();
});
