// SQL that builds the transparency resources as JSON, field by field in the spec's order, with every
// value already in its served form: money as two-decimal text, dates as YYYY-MM-DD, timestamps in UTC
// with microseconds, CPFs masked. One resource, relations included, is one round trip.

export type Field = readonly [name: string, sql: string]

export const money = (sql: string) => `round(${sql}, 2)::text`
export const day = (sql: string) => `to_char(${sql}, 'YYYY-MM-DD')`
export const instant = (sql: string) => `to_char(${sql} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`
/** 12345678901 → ***.456.789-** : only the middle digits of a CPF are public. */
export const maskedCpf = (sql: string) =>
  `'***.' || substr(${sql}, 4, 3) || '.' || substr(${sql}, 7, 3) || '-**'`
/** A supplier's document: a CNPJ in full, a CPF (a person) masked. */
export const publicDocument = (sql: string) =>
  `CASE WHEN length(${sql}) = 11 THEN ${maskedCpf(sql)} ELSE ${sql} END`

export function object(fields: readonly Field[]): string {
  return `json_build_object(${fields.map(([name, sql]) => `'${name}', ${sql}`).join(', ')})`
}

/** A JSON array of the rows of a subquery, in order; [] when there are none. */
export function array(element: string, from: string, orderBy: string): string {
  return `coalesce((SELECT json_agg(${element} ORDER BY ${orderBy}) ${from}), '[]'::json)`
}

export const documents = (where: string) =>
  array(
    object([
      ['uuid', 'd.uuid'],
      ['name', 'd.name'],
      ['url', 'd.url'],
    ]),
    `FROM documents d WHERE ${where}`,
    'd.position',
  )

export const terms = (where: string) =>
  array(
    object([
      ['number', 't.number'],
      ['kind', 't.kind'],
      ['description', 't.description'],
      ['signature_date', day('t.signature_date')],
      ['date_start', day('t.date_start')],
      ['date_end', day('t.date_end')],
      ['value', money('t.value')],
      ['documents', documents('d.term_id = t.id')],
    ]),
    `FROM additive_terms t WHERE ${where}`,
    't.position',
  )

export const people = (contract: string, kind: 'manager' | 'inspector') =>
  array(
    object([
      ['role', 'p.role'],
      ['name', 'p.name'],
      ['cpf', maskedCpf('p.cpf')],
      ['office', 'p.office'],
    ]),
    `FROM contract_people p WHERE p.contract_id = ${contract}.id AND p.kind = '${kind}'`,
    'p.position',
  )

export const commitments = (contract: string) =>
  array(
    object([
      ['year', 'k.year'],
      ['number', 'k.number'],
      ['emission_date', day('k.emission_date')],
      ['description', 'k.description'],
      ['value', money('k.value')],
      ['expense_account_code', 'k.expense_account_code'],
      ['expense_account_name', 'k.expense_account_name'],
    ]),
    `FROM contract_commitments k WHERE k.contract_id = ${contract}.id`,
    'k.position',
  )

/** Orders linked by number: `column` is orders.contract_number or orders.arp_number. */
export const orders = (owner: string, column: 'contract_number' | 'arp_number', number: string) =>
  array(
    object([
      ['number', 'o.number'],
      ['object', 'o.object'],
      ['status_title', 'os.name'],
      ['amount_total', money('o.amount_total')],
      ['deadline_delivery', instant('o.deadline_delivery')],
      ['provider_name', 'os_s.name'],
      ['provider_document', publicDocument('os_s.document')],
    ]),
    `FROM orders o JOIN order_statuses os ON os.id = o.status_id JOIN suppliers os_s ON os_s.id = o.supplier_id
     WHERE o.organization_id = ${owner}.organization_id AND o.${column} = ${number}`,
    'o.deadline_delivery DESC, o.id',
  )

export const providers = (bidding: string) =>
  array(
    object([
      ['name', 'ps.name'],
      ['document', publicDocument('ps.document')],
      ['representative_name', 'p.representative_name'],
    ]),
    `FROM bidding_providers p JOIN suppliers ps ON ps.id = p.supplier_id WHERE p.bidding_id = ${bidding}.id`,
    'p.position',
  )

export const contractSummaries = (where: string) =>
  array(
    object([
      ['id', 'cs.id'],
      ['contract_number', 'cs.contract_number'],
      ['object_details', 'cs.object_details'],
      ['amount_total', money('cs.amount_total')],
      ['provider_company_name', 'css.name'],
      ['date_start', day('cs.date_start')],
      ['date_end', day('cs.date_end')],
      ['management_status', 'csm.name'],
    ]),
    `FROM contracts cs JOIN suppliers css ON css.id = cs.supplier_id
     JOIN management_statuses csm ON csm.id = cs.management_status_id WHERE ${where}`,
    'cs.date_start DESC, cs.id',
  )

export const arpSummaries = (where: string) =>
  array(
    object([
      ['id', 'ars.id'],
      ['number', 'ars.number'],
      ['object_details', 'ars.object_details'],
      ['amount_total', money('ars.amount_total')],
      ['provider_company_name', 'arss.name'],
      ['date_signature', day('ars.date_signature')],
      ['date_expiration', day('ars.date_expiration')],
      ['management_status', 'arsm.name'],
    ]),
    `FROM arps ars JOIN suppliers arss ON arss.id = ars.supplier_id
     JOIN management_statuses arsm ON arsm.id = ars.management_status_id WHERE ${where}`,
    'ars.date_signature DESC, ars.id',
  )
