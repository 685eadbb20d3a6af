import { Client, errors } from '@elastic/elasticsearch';
import { aliasName, DOC_TYPES, DocType, generationOf, indexName, MAPPINGS } from './es-index-layout';

export interface IndexSettings {
  shards: number;
  replicas: number;
}

/** Thrown when the aliases moved under us: another process promoted or bootstrapped first. */
export class GenerationRaceError extends Error {}

/** The generation the aliases point at, or null before the first one. */
export async function servedGeneration(client: Client, prefix: string): Promise<string | null> {
  let body: Record<string, unknown>;
  try {
    body = await client.indices.getAlias({ name: aliasName(prefix, 'positions') });
  } catch (err) {
    if (err instanceof errors.ResponseError && err.statusCode === 404) return null;
    throw err;
  }
  const gens = Object.keys(body).map((i) => generationOf(prefix, 'positions', i));
  if (gens.length !== 1 || !gens[0]) throw new Error(`alias ${aliasName(prefix, 'positions')} points at ${Object.keys(body).join(', ')}`);
  return gens[0];
}

/**
 * Index management waits on the master's cluster-state updates, which queue behind each
 * other: on a loaded node creating a generation's indices takes far longer than a
 * document request may. These calls get their own, longer patience.
 */
const ADMIN_TIMEOUT = '90s';
export const ADMIN_REQUEST = { requestTimeout: 100_000 };

/**
 * Create one index of a generation. An index that already exists is taken as created:
 * generations are new names, so it is this process's own earlier attempt (the client
 * retried a create that timed out but went through) or another process opening the same
 * served generation at the same moment.
 */
async function createIndex(client: Client, prefix: string, type: DocType, gen: string, s: IndexSettings): Promise<void> {
  try {
    await client.indices.create(
      {
        index: indexName(prefix, type, gen),
        settings: { number_of_shards: s.shards, number_of_replicas: s.replicas },
        mappings: MAPPINGS[type],
        timeout: ADMIN_TIMEOUT,
        master_timeout: ADMIN_TIMEOUT,
      },
      ADMIN_REQUEST,
    );
  } catch (err) {
    if (!(err instanceof errors.ResponseError && /resource_already_exists/.test(err.message))) throw err;
  }
}

export async function createGenerationIndices(client: Client, prefix: string, gen: string, s: IndexSettings): Promise<void> {
  await Promise.all(DOC_TYPES.map((type) => createIndex(client, prefix, type, gen, s)));
}

/**
 * Give a served generation the indices of the types it lacks (one created before those
 * types existed), with their aliases, and return the types added. They start empty: the
 * events of those types already below the generation's positions are only in them after a
 * rebuild. Without this, writes would auto-create the indices with guessed mappings and
 * reads would find no alias.
 */
export async function addMissingIndices(client: Client, prefix: string, gen: string, s: IndexSettings): Promise<DocType[]> {
  const missing: DocType[] = [];
  for (const type of DOC_TYPES) if (!(await client.indices.exists({ index: indexName(prefix, type, gen) }))) missing.push(type);
  if (missing.length === 0) return [];
  for (const type of missing) await createIndex(client, prefix, type, gen, s);
  await client.indices.updateAliases(
    {
      actions: missing.map((type) => ({ add: { index: indexName(prefix, type, gen), alias: aliasName(prefix, type), is_write_index: true } })),
      timeout: ADMIN_TIMEOUT,
      master_timeout: ADMIN_TIMEOUT,
    },
    ADMIN_REQUEST,
  );
  return missing;
}

/**
 * Give the indices of a served generation the fields added to their mappings since they
 * were created (a build that stores more, e.g. a decision's `parts`): strict mappings
 * would refuse the new documents otherwise. Adding fields is all a mapping update may do;
 * documents written before simply lack them.
 */
export async function addMissingFields(client: Client, prefix: string, gen: string): Promise<void> {
  for (const type of DOC_TYPES) {
    const properties = MAPPINGS[type].properties;
    if (properties) {
      await client.indices.putMapping(
        { index: indexName(prefix, type, gen), properties, timeout: ADMIN_TIMEOUT, master_timeout: ADMIN_TIMEOUT },
        ADMIN_REQUEST,
      );
    }
  }
}

/**
 * Point every alias at `gen` in one `_aliases` request, so readers switch all types at
 * once. It is a compare-and-swap: each removal must find the alias on `previous`, and
 * an alias holds one write index only, so a concurrent bootstrap or promote makes the
 * whole request fail (GenerationRaceError) instead of mixing generations.
 */
export async function swapAliases(client: Client, prefix: string, gen: string, previous: string | null): Promise<void> {
  const actions = DOC_TYPES.flatMap((type) => [
    ...(previous ? [{ remove: { index: indexName(prefix, type, previous), alias: aliasName(prefix, type), must_exist: true } }] : []),
    { add: { index: indexName(prefix, type, gen), alias: aliasName(prefix, type), is_write_index: true } },
  ]);
  try {
    await client.indices.updateAliases({ actions, timeout: ADMIN_TIMEOUT, master_timeout: ADMIN_TIMEOUT }, ADMIN_REQUEST);
  } catch (err) {
    if (err instanceof errors.ResponseError && (err.statusCode === 404 || /more than one write index/.test(err.message))) {
      throw new GenerationRaceError(`aliases of ${prefix} moved while switching to ${gen}: ${err.message}`);
    }
    throw err;
  }
}

export async function deleteGeneration(client: Client, prefix: string, gen: string): Promise<void> {
  await client.indices.delete(
    { index: DOC_TYPES.map((t) => indexName(prefix, t, gen)), ignore_unavailable: true, timeout: ADMIN_TIMEOUT, master_timeout: ADMIN_TIMEOUT },
    ADMIN_REQUEST,
  );
}

/**
 * A rebuild's request that the live projector promote its generation: one document in a
 * small control index `<prefix>-promotion`. The projector that takes it (deleting it,
 * guarded by its sequence number, so there is one taker) stops writing the served
 * generation, brings the new one up to the log's end, and only then swaps the aliases:
 * readers never meet a generation that lacks a write they were answered for.
 */
export interface PromotionRequest {
  generation: string;
  seqNo: number;
  primaryTerm: number;
}

const promotionIndex = (prefix: string) => `${prefix}-promotion`;

export async function requestPromotion(client: Client, prefix: string, gen: string): Promise<void> {
  try {
    await client.indices.create(
      {
        index: promotionIndex(prefix),
        settings: { number_of_shards: 1, number_of_replicas: 0 },
        mappings: { dynamic: 'strict', properties: { generation: { type: 'keyword' }, requestedAt: { type: 'date' } } },
        timeout: ADMIN_TIMEOUT,
        master_timeout: ADMIN_TIMEOUT,
      },
      ADMIN_REQUEST,
    );
  } catch (err) {
    if (!(err instanceof errors.ResponseError && /resource_already_exists/.test(err.message))) throw err;
  }
  await client.index({ index: promotionIndex(prefix), id: 'request', document: { generation: gen, requestedAt: new Date().toISOString() } });
}

export async function pendingPromotion(client: Client, prefix: string): Promise<PromotionRequest | null> {
  try {
    const r = await client.get<{ generation: string }>({ index: promotionIndex(prefix), id: 'request' });
    if (!r.found || !r._source) return null;
    return { generation: r._source.generation, seqNo: r._seq_no!, primaryTerm: r._primary_term! };
  } catch (err) {
    if (err instanceof errors.ResponseError && err.statusCode === 404) return null; // no request, or no control index yet
    throw err;
  }
}

/** Take (delete) the request seen as `req`: true for the one taker, false when it moved or went. */
export async function claimPromotion(client: Client, prefix: string, req: PromotionRequest): Promise<boolean> {
  try {
    await client.delete({ index: promotionIndex(prefix), id: 'request', if_seq_no: req.seqNo, if_primary_term: req.primaryTerm });
    return true;
  } catch (err) {
    if (err instanceof errors.ResponseError && (err.statusCode === 409 || err.statusCode === 404)) return false;
    throw err;
  }
}
