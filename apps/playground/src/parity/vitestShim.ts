// What the parity page gives the spec files in place of `vitest` (vite.config.ts aliases it):
// describe/it (with .each and .runIf) that only register tests, and vitest's own `expect`
// (@vitest/expect's matchers on chai, set up as vitest sets them up). runRegistered() runs them.
import * as chai from 'chai';
import {
  ASYMMETRIC_MATCHERS_OBJECT,
  JestAsymmetricMatchers,
  JestChaiExpect,
  JestExtend,
  type ExpectStatic,
  getState,
  setState,
} from '@vitest/expect';

chai.use(JestExtend);
chai.use(JestChaiExpect);
chai.use(JestAsymmetricMatchers);

type Body = (...args: unknown[]) => unknown;
interface Registered {
  name: string;
  body: () => unknown;
}
export interface TestResult {
  name: string;
  ok: boolean;
  error: string | null;
}

const registered: Registered[] = [];
const path: string[] = [];

/** vitest's title formatting for .each: %s, %i, %d, %f, %j, %o take the case's values in turn. */
function title(template: string, args: readonly unknown[]): string {
  let k = 0;
  return template.replace(/%[sidfjo%]/g, (m) => {
    if (m === '%%') return '%';
    const v = args[k++];
    return m === '%j' || m === '%o' ? JSON.stringify(v) : String(v);
  });
}

const spread = (c: unknown): unknown[] => (Array.isArray(c) ? c : [c]);

function each(register: (name: string, body: () => unknown) => void) {
  return (cases: readonly unknown[]) => (name: string, body: Body) =>
    cases.forEach((c) => register(title(name, spread(c)), () => body(...spread(c))));
}

function registerDescribe(name: string, body: () => unknown): void {
  path.push(name);
  try {
    body();
  } finally {
    path.pop();
  }
}

function registerIt(name: string, body: () => unknown): void {
  registered.push({ name: [...path, name].join(' > '), body });
}

export const describe = Object.assign(registerDescribe, { each: each(registerDescribe) });
export const it = Object.assign(registerIt, {
  each: each(registerIt),
  runIf: (condition: boolean) => (condition ? registerIt : () => {}),
});
export const test = it;

// vitest's createExpect: chai's expect counting its calls, with the asymmetric matchers (expect.any, ...)
export const expect = Object.assign(
  (value: unknown, message?: string) => {
    setState({ assertionCalls: getState(expect).assertionCalls + 1 }, expect);
    return chai.expect(value, message);
  },
  chai.expect,
  (globalThis as Record<symbol, unknown>)[ASYMMETRIC_MATCHERS_OBJECT],
) as unknown as ExpectStatic;
setState(
  {
    assertionCalls: 0,
    isExpectingAssertions: false,
    isExpectingAssertionsError: null,
    expectedAssertionsNumber: null,
    expectedAssertionsNumberErrorGen: null,
    environment: 'browser',
    testPath: 'parity.html',
    currentTestName: '',
  },
  expect,
);

/** Runs every registered test in order; each reports whether it passed (and made an assertion). */
export async function runRegistered(onResult: (r: TestResult) => void): Promise<TestResult[]> {
  const results: TestResult[] = [];
  for (const { name, body } of registered.splice(0)) {
    const before = getState(expect).assertionCalls;
    let error: string | null = null;
    try {
      await body();
      if (getState(expect).assertionCalls === before) error = 'the test made no assertion';
    } catch (e) {
      error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    }
    const result = { name, ok: error === null, error };
    results.push(result);
    onResult(result);
    // let the page paint between tests
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  return results;
}
