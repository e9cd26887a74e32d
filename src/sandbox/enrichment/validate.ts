/**
 * Body checks for the enrichment and content routes, with DRF's field-error shapes
 * (`{"error": {"handle": ["This field is required."]}}`), collected before any answer.
 */
import { ApiError, fieldErrors, type FieldErrors } from '../respond.js';

export class BodyReader {
  readonly errors: FieldErrors = {};
  private readonly body: Record<string, unknown>;

  constructor(body: unknown) {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new ApiError(fieldErrors(400, { non_field_errors: ['Invalid data. Expected a dictionary.'] }));
    }
    this.body = body as Record<string, unknown>;
  }

  private fail(field: string, message: string): undefined {
    this.errors[field] = [message];
    return undefined;
  }

  has(field: string): boolean {
    return this.body[field] !== undefined && this.body[field] !== null;
  }

  /** A required (or optional) trimmed string of 1..max characters. */
  string(field: string, required: boolean, max = 200): string | undefined {
    const v = this.body[field];
    if (v === undefined || v === null || v === '')
      return required ? this.fail(field, 'This field is required.') : undefined;
    if (typeof v !== 'string') return this.fail(field, 'Not a valid string.');
    const t = v.trim();
    if (!t) return required ? this.fail(field, 'This field may not be blank.') : undefined;
    if (t.length > max) return this.fail(field, `Ensure this field has no more than ${max} characters.`);
    return t;
  }

  choice<T extends string>(field: string, choices: readonly T[], fallback?: T): T | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return fallback ?? this.fail(field, 'This field is required.');
    if (typeof v !== 'string' || !(choices as readonly string[]).includes(v))
      return this.fail(field, `"${String(v)}" is not a valid choice.`);
    return v as T;
  }

  bool(field: string, fallback: boolean): boolean {
    const v = this.body[field];
    if (v === undefined || v === null) return fallback;
    if (typeof v === 'boolean') return v;
    if (v === 'true' || v === 'false') return v === 'true';
    this.fail(field, 'Must be a valid boolean.');
    return fallback;
  }

  int(field: string, min: number): number | undefined {
    const v = this.body[field];
    if (v === undefined || v === null) return undefined;
    const n = typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : v;
    if (typeof n !== 'number' || !Number.isInteger(n)) return this.fail(field, 'A valid integer is required.');
    if (n < min) return this.fail(field, `Ensure this value is greater than or equal to ${min}.`);
    return n;
  }

  stringList(field: string, choices: readonly string[]): string[] {
    const v = this.body[field];
    if (v === undefined || v === null) return [];
    if (!Array.isArray(v)) {
      this.fail(field, `Expected a list of items but got type "${typeof v}".`);
      return [];
    }
    const bad = v.find((x) => typeof x !== 'string' || !choices.includes(x));
    if (bad !== undefined) {
      this.fail(field, `"${String(bad)}" is not a valid choice.`);
      return [];
    }
    return v as string[];
  }

  /** Throws the collected field errors as one 400. */
  done(): void {
    if (Object.keys(this.errors).length > 0) throw new ApiError(fieldErrors(400, this.errors));
  }
}
