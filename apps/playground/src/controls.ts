// The settings form: one control per field (its id is the field's name), each with an error line
// beside it (`<field>-error`). A control's text is checked as it changes (settings.ts's PARSERS):
// an invalid one is marked (aria-invalid) and explained at once, a valid one becomes the setting
// when the control is left (or the select changes).
import { FIELDS, type Field, PARSERS, type Settings, format } from './settings.js';

export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`no #${id} in the page`);
  return el as T;
}

type Control = HTMLInputElement | HTMLSelectElement;

const control = (field: Field) => $<Control>(field);

/** Shows `error` beside the field's control (or clears it). */
export function markField(field: Field, error: string | undefined): void {
  const el = control(field);
  el.setAttribute('aria-invalid', String(error !== undefined));
  $(`${field}-error`).textContent = error ?? '';
}

/** Puts the settings into the controls, and marks the fields `errors` names with their text. */
export function showSettings(settings: Settings, errors: Partial<Record<Field, string>>, raw: URLSearchParams): void {
  for (const field of FIELDS) {
    const text = errors[field] !== undefined ? (raw.get(field) ?? '') : format(field, settings[field]);
    control(field).value = text;
    markField(field, errors[field]);
  }
}

/**
 * Checks a control as it is typed in (`input`: marks it, and reports an invalid text at once) and
 * when it is left or a select changes (`change`: a valid value is committed). `onValid(field,
 * value, committed)` and `onInvalid(field, error)` run after the control is marked, so typing
 * "0.05" does not start over at "0".
 */
export function watchControls(
  onValid: <F extends Field>(field: F, value: Settings[F], committed: boolean) => void,
  onInvalid: (field: Field, error: string) => void,
): void {
  for (const field of FIELDS) {
    const el = control(field);
    const check = (committed: boolean) => () => {
      const parsed = PARSERS[field](el.value);
      markField(field, parsed.ok ? undefined : parsed.error);
      if (parsed.ok) onValid(field, parsed.value, committed);
      else onInvalid(field, parsed.error);
    };
    el.addEventListener('change', check(true));
    if (el instanceof HTMLInputElement) el.addEventListener('input', check(false));
  }
}
