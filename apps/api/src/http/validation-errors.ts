import { ValidationError } from 'class-validator';

/** Every failed constraint as `field: message`, nested fields dotted. */
export function flattenValidationErrors(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const name = parent ? `${parent}.${e.property}` : e.property;
    for (const msg of Object.values(e.constraints ?? {})) out.push(msg.startsWith(e.property) ? `${name}${msg.slice(e.property.length)}` : `${name}: ${msg}`);
    if (e.children?.length) out.push(...flattenValidationErrors(e.children, name));
  }
  return out;
}
