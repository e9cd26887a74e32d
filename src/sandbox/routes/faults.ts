/**
 * `/_sandbox/faults`: fault injection at run time (no auth, sandbox only).
 *   GET    /_sandbox/faults   {rules: [...with matched/injected], injected: {kind: n}, total, requests, charged_then_lost}
 *   POST   /_sandbox/faults   {"spec": "503 GET /public/v1/** count=2; ..."} or {"rules": [...]} or a bare
 *                             array; `"append": true` adds to the rules in force, `"reset": true` zeroes the counters
 *   DELETE /_sandbox/faults   removes every rule (the counters stay for the report)
 * The rule language is described in faults/rules.ts.
 */
import { parseJson } from '../body.js';
import { describeFaults, resetFaultCounters, setFaults } from '../faults/engine.js';
import { FaultSpecError, parseFaultSpec } from '../faults/rules.js';
import { fieldErrors, json } from '../respond.js';
import type { Router } from '../router.js';

export function register(router: Router): void {
  router.get('/_sandbox/faults', ({ state }) => json(describeFaults(state)));
  router.post(
    '/_sandbox/faults',
    ({ state, rawBody }) => {
      const parsed = parseJson(rawBody.length > 0 ? rawBody : Buffer.from('[]'));
      if (!parsed.ok) return parsed.reply;
      const body = parsed.body as Record<string, unknown> | unknown[] | null;
      try {
        const options = body && !Array.isArray(body) && typeof body === 'object' ? body : {};
        const source = Array.isArray(body)
          ? body
          : typeof options.spec === 'string'
            ? options.spec
            : { rules: options.rules ?? [] };
        const rules = parseFaultSpec(source);
        if (options.reset === true) resetFaultCounters(state);
        setFaults(state, rules, options.append === true);
      } catch (err) {
        if (err instanceof FaultSpecError) return fieldErrors(400, { faults: [err.message] });
        throw err;
      }
      return json(describeFaults(state));
    },
    { body: 'raw' },
  );
  router.delete('/_sandbox/faults', ({ state }) => {
    setFaults(state, []);
    return json(describeFaults(state));
  });
}
