import { MESSAGES, ORDER_MESSAGES } from '../messages.js'
import { Envelope } from './answer.js'

// The envelopes every answer goes out in, declared once: the transparency API's (spec 2.2, 2.8: success,
// message, data) and the order query's (spec 7.1: message, data). Routes, listings, feeds and the benchmark's
// bare server take them from here; no other module writes an envelope's text.

/** A transparency answer: the data's JSON text inside `{"success":true,"message":…,"data":…}`. */
export const PUBLIC_SUCCESS = new Envelope(
  `{"success":true,"message":${JSON.stringify(MESSAGES.success)},"data":`,
  '}',
)

/**
 * A record's detail: the record in the transparency envelope and, beside `data`, the integrity flags that name it
 * (src/indicators): a flag is no part of the record, which stays as the feeds and its history give it.
 */
export const PUBLIC_DETAIL = {
  text: (record: string, indicators: string): string =>
    `${PUBLIC_SUCCESS.head}${record},"indicators":${indicators}}`,
}

/** The order query's answer: the order's JSON text inside `{"message":…,"data":…}`. */
export const ORDER_SUCCESS = new Envelope(`{"message":${JSON.stringify(ORDER_MESSAGES.success)},"data":`, '}')

/** A feed page's data, as both feeds give it: entries already JSON text, the cursor to go on from. */
export interface FeedPageText {
  entries: string
  nextCursor: string
  hasMore: boolean
}

const feedData = (page: FeedPageText) =>
  `{"data":${page.entries},"next_cursor":"${page.nextCursor}","has_more":${page.hasMore}}`

/** A page of the public change feed. */
export const PUBLIC_CHANGES = { page: (page: FeedPageText): string => PUBLIC_SUCCESS.text(feedData(page)) }

/** A page of an organ's order feed, in the order query's envelope with its own message. */
const ORDER_CHANGES_ENVELOPE = new Envelope(
  `{"message":${JSON.stringify(ORDER_MESSAGES.changes)},"data":`,
  '}',
)
export const ORDER_CHANGES = {
  page: (page: FeedPageText): string => ORDER_CHANGES_ENVELOPE.text(feedData(page)),
}

/** A transparency failure: `{"success":false,"message":…}`. */
export const publicFailure = (message: string): { success: false; message: string } => ({
  success: false,
  message,
})

/** An order query failure: `{"message":…,"data":[]}` (spec 7.2). */
export const orderFailure = (message: string): { message: string; data: never[] } => ({ message, data: [] })
