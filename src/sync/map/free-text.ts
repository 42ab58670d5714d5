import { isControlCharacter } from '../../erp/index.ts';

/**
 * Free text as it reaches the ERP: control characters (NUL and the other C0 codes but tab, line
 * feed and carriage return, and DEL) are removed. They are invisible on the platform, carry no
 * meaning, and PostgreSQL cannot store NUL (docs/decisions.md "Control characters in free text
 * are removed").
 */
export function freeText(text: string): string;
export function freeText(text: string | null | undefined): string | null | undefined;
export function freeText(text: string | null | undefined): string | null | undefined {
  if (typeof text !== 'string') return text;
  let clean = '';
  let changed = false;
  for (let i = 0; i < text.length; i++) {
    if (isControlCharacter(text.charCodeAt(i))) changed = true;
    else clean += text[i];
  }
  return changed ? clean : text;
}
