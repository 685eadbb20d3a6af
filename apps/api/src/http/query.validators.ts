import { Transform } from 'class-transformer';
import { IsInt, IsISO8601, IsOptional, Max, Min } from 'class-validator';
import { stacked } from '@cds/validation';

/** Query strings are strings: only plain decimal integers are accepted. */
export const queryInt = ({ value }: { value: unknown }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value);

/** `limit` of a listing in the query string: an integer from 1 to 1000. */
export const ListLimit = (): PropertyDecorator => stacked(IsOptional(), Transform(queryInt), IsInt({ message: 'limit must be an integer' }), Min(1), Max(1000));

/** A bound of a time window (`from`, `to`): an ISO 8601 date-time, the property named in the message. */
export const OptionalDateTime = (): PropertyDecorator => (target, key) =>
  stacked(IsOptional(), IsISO8601({ strict: true }, { message: `${String(key)} must be an ISO 8601 date-time` }))(target, key);
