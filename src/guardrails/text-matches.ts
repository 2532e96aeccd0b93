// The built-in detectors: each finds spans of sensitive text in a string. Phone numbers through libphonenumber-js
// (findPhoneNumbersInText), IBANs checked by ibantools (country length and check digits); emails, Luhn-checked card
// numbers and provider-key-shaped secrets are small patterns, written to run in time linear in the text.
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';

/** A span of `text`: [start, end). */
export interface TextMatch {
  start: number;
  end: number;
}

const LOCAL_CHAR = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]/;
const DOMAIN_CHAR = /[A-Za-z0-9.-]/;
const EMAIL_LOCAL_MAX = 64;
const EMAIL_DOMAIN_MAX = 255;

/**
 * Emails, found from each `@` outwards (a pattern run from every position would take quadratic time on long runs of
 * address characters): up to 64 characters of local part before it, a dotted domain after it.
 */
export function findEmails(text: string): TextMatch[] {
  const matches: TextMatch[] = [];
  let at = text.indexOf('@');
  let searchedTo = 0;
  while (at !== -1) {
    let start = at;
    while (start > searchedTo && at - start < EMAIL_LOCAL_MAX && LOCAL_CHAR.test(text[start - 1]!)) start--;
    while (start < at && text[start] === '.') start++;
    let end = at + 1;
    while (end < text.length && end - at <= EMAIL_DOMAIN_MAX && DOMAIN_CHAR.test(text[end]!)) end++;
    while (end > at + 1 && (text[end - 1] === '.' || text[end - 1] === '-')) end--;
    const domain = text.slice(at + 1, end);
    if (start < at && /^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/.test(domain)) {
      matches.push({ start, end });
      searchedTo = end;
    }
    at = text.indexOf('@', Math.max(at + 1, searchedTo));
  }
  return matches;
}

/** Runs of phone-number characters holding at least 7 digits: international ones start with `+`. */
const INTERNATIONAL_CANDIDATE = /\+\s?\d[\d\s().-]{5,24}\d/g;
const NATIONAL_CANDIDATE = /(?:\+\s?)?\(?\d[\d\s().-]{5,24}\d/g;
/** Characters of context given to the library around a candidate (it reads "tel:", "ext." and the like). */
const PHONE_CONTEXT = 8;

/**
 * Phone numbers as libphonenumber-js finds them: international ones always, national ones of `region` when set. The
 * library walks the whole text it is given, slowly on long prompts, so it is given only the runs of digits that
 * could be a number (with a little context), and what it finds is placed back in the text.
 */
export function findPhones(text: string, region?: string): TextMatch[] {
  const matches: TextMatch[] = [];
  const candidates = region ? NATIONAL_CANDIDATE : INTERNATIONAL_CANDIDATE;
  let matchedTo = 0;
  for (const candidate of text.matchAll(candidates)) {
    if (digitCount(candidate[0]) < 7) continue;
    const from = Math.max(0, candidate.index - PHONE_CONTEXT);
    const to = Math.min(text.length, candidate.index + candidate[0].length + PHONE_CONTEXT);
    const snippet = text.slice(from, to);
    const found = region
      ? findPhoneNumbersInText(snippet, { defaultCountry: region as CountryCode })
      : findPhoneNumbersInText(snippet);
    for (const phone of found) {
      // Neighbouring candidates share context: a number is taken once.
      if (from + phone.startsAt < matchedTo) continue;
      matches.push({ start: from + phone.startsAt, end: from + phone.endsAt });
      matchedTo = from + phone.endsAt;
    }
  }
  return matches;
}

function digitCount(text: string): number {
  let digits = 0;
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) >= 48 && text.charCodeAt(i) <= 57) digits++;
  return digits;
}

const CARD_CANDIDATE = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d-])/g;

/** Card numbers: 13 to 19 digits, optionally grouped by spaces or dashes, whose Luhn check digit holds. */
export function findCreditCards(text: string): TextMatch[] {
  const matches: TextMatch[] = [];
  for (const match of text.matchAll(CARD_CANDIDATE)) {
    const digits = match[0].replace(/[ -]/g, '');
    if (digits.length >= 13 && digits.length <= 19 && luhnValid(digits))
      matches.push({ start: match.index, end: match.index + match[0].length });
  }
  return matches;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const IBAN_CANDIDATE = /(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?![A-Za-z0-9])/g;

/** IBANs, written whole or in groups of four, valid for their country's length and check digits (ibantools). */
export function findIbans(text: string): TextMatch[] {
  const matches: TextMatch[] = [];
  for (const match of text.matchAll(IBAN_CANDIDATE)) {
    const compact = electronicFormatIBAN(match[0]);
    if (compact !== null && isValidIBAN(compact))
      matches.push({ start: match.index, end: match.index + match[0].length });
  }
  return matches;
}

/**
 * Credentials shaped like the providers' and the gateway's own keys: OpenAI (`sk-`, `sk-proj-`), Anthropic
 * (`sk-ant-`), OpenRouter (`sk-or-v1-`), DeepSeek (`sk-`), Google (`AIza`), Groq (`gsk_`), xAI (`xai-`), and
 * Modelgate's keys and tokens (`mg-v1-`, `mgm-v1-`, `mgt-v1-`, `mga-v1-`).
 */
const SECRET =
  /(?<![A-Za-z0-9_-])(?:sk-[A-Za-z0-9_-]{20,}|AIza[0-9A-Za-z_-]{35}|gsk_[A-Za-z0-9]{20,}|xai-[A-Za-z0-9]{20,}|mg[mta]?-v1-[A-Za-z0-9_-]{20,})/g;

/** What every key shape above contains: a text without any of them is skipped without running the pattern. */
const SECRET_MARKERS = ['sk-', 'AIza', 'gsk_', 'xai-', '-v1-'];

export function findSecrets(text: string): TextMatch[] {
  if (!SECRET_MARKERS.some((marker) => text.includes(marker))) return [];
  return [...text.matchAll(SECRET)].map((match) => ({ start: match.index, end: match.index + match[0].length }));
}

/** Every match of an operator's pattern (compiled with the global flag). */
export function findPattern(text: string, pattern: RegExp): TextMatch[] {
  const matches: TextMatch[] = [];
  for (const match of text.matchAll(pattern)) {
    if (match[0].length > 0) matches.push({ start: match.index, end: match.index + match[0].length });
  }
  return matches;
}
