import type { EncodedEvent } from '@cds/event-log';
import { decodeRows } from './decode-rows';
import { answerJobs } from './sqlite-thread';

/** A row decoder thread (see SqliteRowDecoders). */
answerJobs((events: EncodedEvent[]) => decodeRows(events));
