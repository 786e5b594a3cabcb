// Generated from docs/openapi.json by openapi-typescript (`npm run docs:export`). Do not edit.

export interface paths {
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This document (OpenAPI 3.0), as this instance serves it
         * @description The same document is committed as docs/openapi.json; clients generate their types from it.
         */
        get: operations["getOpenApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness: the process is up */
        get: operations["getHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ready": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness: the public reads can be served (their pool answers within its connect timeout) */
        get: operations["getReady"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The complete supply order with its items
         * @description Looks the order up by its number among the orders of the organ that the token belongs to; another organ's order answers like a missing one. 60 requests per second per token. As the spec says, a missing or blank order_number is answered 500 `Número da ordem é obrigatório` (after the token is checked), not 400.
         */
        get: operations["getOrderByNumber"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/external/orders/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed among the token's organ's orders: created, updated or withdrawn, in order
         * @description A feed to keep an organ's system in sync with its orders, under the order query's authentication: the same token, the same 60 requests a second (shared with the order query), the same 401, 429 and 500. Entries are in the order their imports committed, visible when the import commits; read from `after` (none: from the start) with `next_cursor`, and nothing is missed or seen twice. A created or updated entry carries the order as GET /external/orders answers it now; a withdrawn one is a tombstone, and the withdrawn order's earlier entries are gone. Only the token's organ's orders appear, numbered in the organ's own sequence: a cursor tells nothing of other organs. With `wait`, an answer with no entry waits for the next import. A bad parameter is answered 422 with a message that names it; a cursor of another log (the database was loaded again), of another organ or feed, or past the feed's end, 410: sync again from the start. An order belongs to its organization for good (its key is the organization and the number), so it never moves to another feed.
         */
        get: operations["listOrderChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every record of a listing as an Excel (.xlsx) or CSV file
         * @description Takes the resource, the format, and the filters and sort of that resource's listing with the same meaning; returns every matching row, not one page, streamed as an attachment named after the resource and the date. Column titles in Portuguese; in XLSX money and numbers are numeric cells and dates date cells. CSV is RFC 4180, UTF-8 with a byte-order mark; separator=; suits Brazilian Excel. Problems with the parameters are answered in JSON before any byte of the file; a failure in the middle aborts the transfer, so a truncated file never looks complete.
         */
        get: operations["exportRecords"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/prices/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The price research as an Excel (.xlsx) or CSV file
         * @description Takes the research's parameters with the same meaning. XLSX has two sheets: the summary per unit, under the query, the moment it was made and the address it can be made again at (under PUBLIC_URL), so that it can be attached to a purchase process; then every matching item. CSV holds the items. Streamed, and bounded as the exports are (one at a time per address, EXPORT_CONCURRENCY at once, EXPORT_TIMEOUT), and as the research is (RESEARCH_MAX_ITEMS: a research too broad is answered 422 before any byte of the file).
         */
        get: operations["exportPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/indicators/export": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The integrity flags as an Excel (.xlsx) or CSV file
         * @description Each flag is a reason to open a record, never a verdict: a rule of Lei 14.133/2021 or of the Open Contracting Partnership's red flags, with the record's own figures. docs/indicators.md gives each code's rule, legal basis and known false positives. Computed at each import for the organizations it touched. A row per flag, newest year first, with the listing's filters: its code, indicator, year, organ, suppliers, reason and the API's address of each record it names. Streamed, and bounded as the exports are (one at a time per address, EXPORT_CONCURRENCY at once, EXPORT_TIMEOUT).
         */
        get: operations["exportIndicators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/releases.jsonl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every OCDS release, one JSON a line (JSON Lines): the latest of each process, or all
         * @description The bulk download: every release GET /v1/ocds/releases would page through, with the same filters, newest change first, one release per line, streamed (gzip or br on request). With history=true, every release ever published, the ones later changes replaced too, in the order they were published (oldest first), so that a process's releases come in order. It counts as an export: EXPORT_CONCURRENCY at once per instance, one per address, each at most EXPORT_TIMEOUT seconds. A failure in the middle aborts the transfer, so a cut file never looks complete.
         */
        get: operations["downloadOcdsReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/changes.jsonl": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The change feed from a cursor to its end, one entry a line (JSON Lines)
         * @description The same entries as GET /v1/transparency/changes with the same parameters, all of them, streamed: a new copy catches up in one request, then follows the feed from the last line's cursor. It counts as an export: EXPORT_CONCURRENCY at once per instance, one per address, EXPORT_TIMEOUT; gzip or br on request.
         */
        get: operations["listChangesAsLines"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/releases": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A page of OCDS releases: one per contracting process, newest change first
         * @description An OCDS 1.1 release package (https://standard.open-contracting.org/schema/1__1__5/release-package-schema.json). A contracting process is a direct contract or public call with its ARPs, contracts and supply orders; a contract or ARP with no bidding is a process of its own. Each release here is the latest of its process: every change to a process is published as a new release, whose `id` is the ocid and its version number, whose `date` is when the change was imported (date_from and date_to filter on it) and whose `tag` says what changed. A published release never changes; the earlier ones are in the record (/v1/ocds/records/{ocid}) and in the bulk download with history=true. `links.next` and `links.prev` give the neighbouring pages with the same filters; with `after`, the processes come in the order their releases changed, for a crawler that syncs incrementally. A page past the last (or a filter that matches nothing) answers 404, since a package holds at least one release. Field by field: docs/ocds-mapping.md.
         */
        get: operations["listOcdsReleases"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/records/{ocid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One contracting process as an OCDS record package
         * @description An OCDS 1.1 record package (https://standard.open-contracting.org/schema/1__1__5/record-package-schema.json): the releases of the process, oldest first, linked by address (each at GET /v1/ocds/releases/{id}: OCDS's linked releases, with their date and tags), its compiledRelease (the state they add up to by the OCDS merge routine) and, with `versioned=true`, its versionedRelease (every value each field had, with the release that gave it). Both are made when an import publishes a release, so an answer costs what the state of the process is, not what its history was. A process published before release history has one release from then on. The ocid is OCDS_PREFIX, a hyphen and the UUID of the bidding (or of the contract or ARP that has none), in any letter case.
         */
        get: operations["getOcdsRecord"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/releases/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One release, current or replaced, as a release package of it alone
         * @description Where a record package links its releases. The id is the ocid, a hyphen and the version, as every release has it. A published release never changes, but for a withdrawal: a record withdrawn as published by mistake is taken out of every release that showed it.
         */
        get: operations["getOcdsRelease"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/package.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The package metadata of this publication, for the bulk download
         * @description The fields every package of this publication carries (uri, version, extensions, publishedDate: the latest release's date, publisher, license, publicationPolicy), without releases: the metadata of GET /v1/ocds/releases.jsonl, whose lines are releases only (its Link header points here).
         */
        get: operations["getOcdsPackageMetadata"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/extension/extension.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The milestone-value extension: its metadata
         * @description OCDS 1.1 has no value on a milestone; compras adds one, so that a supply order (a delivery milestone) shows what it is worth. Every package lists this extension's address.
         */
        get: operations["getOcdsExtension"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/extension/release-schema.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The extension's patch of the release schema
         * @description OCDS 1.1 has no value on a milestone; compras adds one, so that a supply order (a delivery milestone) shows what it is worth. Every package lists this extension's address.
         */
        get: operations["getOcdsExtensionSchema"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/ocds/extension/README.md": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The extension's documentation (its documentationUrl)
         * @description OCDS 1.1 has no value on a milestone; compras adds one, so that a supply order (a delivery milestone) shows what it is worth. Every package lists this extension's address.
         */
        get: operations["getOcdsExtensionDocumentation"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What changed: every record created, updated or withdrawn, in the order the imports made it
         * @description A feed to keep a copy in sync. Entries are in the order their imports committed; an entry becomes visible when its import commits, never before nor partly. Read from `after` (none: from the start) with `next_cursor`, and nothing is missed or seen twice, however imports and reads interleave. A record rewritten with the same content adds no entry. A withdrawn record appears as a tombstone (its kind, key, organization and time, nothing of its content), and its earlier entries are gone: it was published by mistake. Rebuilding documents after an upgrade is not a change of the data and adds nothing. With `wait`, an answer with no entry waits for the next import. Supply orders never appear here (GET /external/orders/changes, with a token).
         */
        get: operations["listChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/contracts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One contract with all its relations */
        get: operations["getContract"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/contracts/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a contract
         * @description The contract's versions, oldest first: each with when the import that made it ran, whether it created or updated the record, and what changed from the version before (field, label, before, after; elements of a relation named by their number, name or id). One version whole is at contracts/{id}/history/{version}. A record published before the change log has one version. A withdrawn record has no history (404): it was published by mistake.
         */
        get: operations["getContractHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/contracts/{id}/history/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One version of a contract, whole
         * @description The contract as its detail served it at that version (from 1, the oldest), with the import that made it. Versions past the last answer 404, as does a version number that is not one (0, text).
         */
        get: operations["getContractVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List contracts: filters, search, sort, pages
         * @description Newest first by default (-date_start), stable across pages. Relations for with_relations: managers, inspectors, commitments, documents, terms, orders.
         */
        get: operations["listContracts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/direct-contracts/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One direct contract with all its relations */
        get: operations["getDirectContract"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/direct-contracts/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a direct contract
         * @description The direct contract's versions, oldest first: each with when the import that made it ran, whether it created or updated the record, and what changed from the version before (field, label, before, after; elements of a relation named by their number, name or id). One version whole is at direct-contracts/{id}/history/{version}. A record published before the change log has one version. A withdrawn record has no history (404): it was published by mistake.
         */
        get: operations["getDirectContractHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/direct-contracts/{id}/history/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One version of a direct contract, whole
         * @description The direct contract as its detail served it at that version (from 1, the oldest), with the import that made it. Versions past the last answer 404, as does a version number that is not one (0, text).
         */
        get: operations["getDirectContractVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/direct-contracts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List direct contracts: filters, search, sort, pages
         * @description Newest first by default (-opening_date), stable across pages. Relations for with_relations: documents, providers, arps, contracts.
         */
        get: operations["listDirectContracts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/public-calls/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One public call with all its relations */
        get: operations["getPublicCall"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/public-calls/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a public call
         * @description The public call's versions, oldest first: each with when the import that made it ran, whether it created or updated the record, and what changed from the version before (field, label, before, after; elements of a relation named by their number, name or id). One version whole is at public-calls/{id}/history/{version}. A record published before the change log has one version. A withdrawn record has no history (404): it was published by mistake.
         */
        get: operations["getPublicCallHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/public-calls/{id}/history/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One version of a public call, whole
         * @description The public call as its detail served it at that version (from 1, the oldest), with the import that made it. Versions past the last answer 404, as does a version number that is not one (0, text).
         */
        get: operations["getPublicCallVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/public-calls": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List public calls: filters, search, sort, pages
         * @description Newest first by default (-opening_date), stable across pages. Relations for with_relations: documents, providers, arps, contracts.
         */
        get: operations["listPublicCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/arps/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One ARP with all its relations */
        get: operations["getArp"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/arps/{id}/history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Every version of a ARP
         * @description The ARP's versions, oldest first: each with when the import that made it ran, whether it created or updated the record, and what changed from the version before (field, label, before, after; elements of a relation named by their number, name or id). One version whole is at arps/{id}/history/{version}. A record published before the change log has one version. A withdrawn record has no history (404): it was published by mistake.
         */
        get: operations["getArpHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/arps/{id}/history/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One version of a ARP, whole
         * @description The ARP as its detail served it at that version (from 1, the oldest), with the import that made it. Versions past the last answer 404, as does a version number that is not one (0, text).
         */
        get: operations["getArpVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/arps": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List ARPs: filters, search, sort, pages
         * @description Newest first by default (-date_signature), stable across pages. Relations for with_relations: documents, terms, orders.
         */
        get: operations["listArps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/helpers/bidding-modalities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The 20 bidding modalities (spec 2.3)
         * @description The ids are the ones the listing filters take.
         */
        get: operations["listBiddingModalities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/helpers/bidding-statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Statuses of direct contracts and public calls (status_id)
         * @description The ids are the ones the listing filters take.
         */
        get: operations["listBiddingStatuses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/helpers/management-statuses": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Management statuses of contracts and ARPs (management_status_id)
         * @description The ids are the ones the listing filters take.
         */
        get: operations["listManagementStatuses"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/contracts.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An Atom feed of the contracts a listing's filters find
         * @description The 50 contracts last changed (by the change feed) among those the listing's filters find, newest first: an Atom 1.0 feed (RFC 4287) for feed readers. Each entry is a record: its id a tag: URI that never changes, its last change, its listing's fields in Portuguese, links to its portal page and its detail, and its kind and status as categories. Cached until the next import, with an ETag. A failure is the listing’s status and message, as XML.
         */
        get: operations["feedContracts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/direct-contracts.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An Atom feed of the direct contracts a listing's filters find
         * @description The 50 direct contracts last changed (by the change feed) among those the listing's filters find, newest first: an Atom 1.0 feed (RFC 4287) for feed readers. Each entry is a record: its id a tag: URI that never changes, its last change, its listing's fields in Portuguese, links to its portal page and its detail, and its kind and status as categories. Cached until the next import, with an ETag. A failure is the listing’s status and message, as XML.
         */
        get: operations["feedDirectContracts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/public-calls.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An Atom feed of the public calls a listing's filters find
         * @description The 50 public calls last changed (by the change feed) among those the listing's filters find, newest first: an Atom 1.0 feed (RFC 4287) for feed readers. Each entry is a record: its id a tag: URI that never changes, its last change, its listing's fields in Portuguese, links to its portal page and its detail, and its kind and status as categories. Cached until the next import, with an ETag. A failure is the listing’s status and message, as XML.
         */
        get: operations["feedPublicCalls"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/arps.atom": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An Atom feed of the ARPs a listing's filters find
         * @description The 50 ARPs last changed (by the change feed) among those the listing's filters find, newest first: an Atom 1.0 feed (RFC 4287) for feed readers. Each entry is a record: its id a tag: URI that never changes, its last change, its listing's fields in Portuguese, links to its portal page and its detail, and its kind and status as categories. Cached until the next import, with an ETag. A failure is the listing’s status and message, as XML.
         */
        get: operations["feedArps"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/prices": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Price research: the unit prices actually paid for items like these
         * @description The unit prices whose item's description holds q's words: every item of every published supply order (source order) and every homologated result of a contratação imported from PNCP (source result), with each unit of measurement's statistics (units are never mixed; spellings of one unit, UN, Unidade, UNID, und., are normalized into it, docs/pncp-mapping.md) and the prices a page at a time. A price's date is an order's delivery deadline (deadline_delivery), the one date every order has, or a result's date; date_from and date_to take its day in UTC. Quartiles are by linear interpolation between the closest ranks, as PostgreSQL's percentile_cont and spreadsheets' QUARTILE.INC compute them; outliers lie outside [p25 − 1.5 × IQR, p75 + 1.5 × IQR], and `sanitized` gives the figures without them. Money is text with two decimals, rounded half up. A q that matches nothing gives empty parts.
         */
        get: operations["researchPrices"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/suppliers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Suppliers that are companies (CNPJ), by name
         * @description A supplier who is a person (CPF) is not listed and has no page.
         */
        get: operations["listSuppliers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/suppliers/{cnpj}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A company's page: what it contracted, by kind, year and organization
         * @description Contracts, ARPs, direct contracts and supply orders of the company: count, value, first and last dates, over all, by year and by organization; and `committed`, the one figure that adds money up, each real once: its contracts, its direct contracts that no contract of its carries (at their finished total when they have one), its orders that no contract of its carries. The kinds overlap (an order executes a contract or an ARP) and an ARP's value is a ceiling: never add them. A direct contract counts whole for each of its suppliers. Only companies have pages: a CPF, whole or masked, is answered exactly as an unknown CNPJ (404), so that no one can confirm a person's document.
         */
        get: operations["getSupplier"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Organizations (public bodies), by name */
        get: operations["listOrganizations"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/organizations/{uuid}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An organization's page: what it bought, by kind and year, what it committed, and its top suppliers */
        get: operations["getOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/indicators": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Integrity indicators (red flags): the flagged records, with their reasons
         * @description Each flag is a reason to open a record, never a verdict: a rule of Lei 14.133/2021 or of the Open Contracting Partnership's red flags, with the record's own figures. docs/indicators.md gives each code's rule, legal basis and known false positives. Computed at each import for the organizations it touched. Newest year first, by cursor.
         */
        get: operations["listIndicators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/transparency/indicators/summary": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Integrity indicators counted by code, over all or for an organization, a supplier or a year
         * @description Each flag is a reason to open a record, never a verdict: a rule of Lei 14.133/2021 or of the Open Contracting Partnership's red flags, with the record's own figures. docs/indicators.md gives each code's rule, legal basis and known false positives. Computed at each import for the organizations it touched.
         */
        get: operations["summarizeIndicators"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        Order: {
            /** @description Order number */
            number: string;
            /** @description Full name of the responsible unit */
            unity_name: string;
            /** @description Abbreviated unit name */
            unity_name_short: string;
            /** @description Object of the order */
            object: string;
            /** @description Administrative process number */
            process_number: string | null;
            /** @description Bidding or contracting number */
            bidding_number: string | null;
            /**
             * @description Bidding modality (spec 2.3)
             * @enum {string}
             */
            modality_name: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            /**
             * @description Current status (spec 3)
             * @enum {string}
             */
            status_title: "Emitida" | "Recebido total" | "Recebido parcialmente" | "Recebido provisoriamente";
            /** @description Name of the responsible supplier */
            provider_name: string;
            /**
             * @description Supplier CNPJ or CPF, digits only
             * @example 79319596000147
             */
            provider_document: string;
            /** @description Name of the supplier's representative */
            representative_name: string;
            /** @description ARP number, when applicable */
            arp_number: string | null;
            /** @description Total value of the ARP, when applicable */
            arp_amount_total: number | null;
            /** @description Contract number, when applicable */
            contract_number: string | null;
            /** @description Total value of the contract, when applicable */
            contract_amount_total: number | null;
            /** @example 3.3.90.30 - Material de Consumo */
            expense_classification_title: string;
            /** @example 1 - Ordinária */
            expense_type_title: string;
            /** @description Delivery location */
            location_delivery: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with microseconds and a trailing Z
             * @example 2025-03-10T14:30:15.123456Z
             */
            deadline_delivery: string;
            /** @description Invoice number, when applicable */
            invoice_number: string | null;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with microseconds and a trailing Z
             * @example 2025-03-10T14:30:15.123456Z
             */
            invoice_issue_date: string | null;
            /** @description Total value of the order */
            amount_total: number;
            items: components["schemas"]["OrderItem"][];
        };
        OrderItem: {
            /** @description Item number */
            number_item: string;
            /** @description Item description */
            description: string;
            /** @description Item brand */
            brand: string;
            /** @description Unit of measure */
            unit_measurement: string;
            /** @description Item quantity */
            quantity: number;
            /** @description Unit value */
            amount: number;
            /** @description Total value of the item */
            amount_total: number;
        };
        OrderChangePage: {
            data: components["schemas"]["OrderChange"][];
            /**
             * @description Where the next page starts: the last entry's cursor, or the one asked for when the page is empty
             * @example YzEuMTIzNDU
             */
            next_cursor: string;
            /** @description Whether entries follow this page already */
            has_more: boolean;
        };
        OrderChange: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /** @description The order's number */
            number: string;
            /** @description created or updated: its document now shows it; withdrawn: published by mistake and gone */
            change: "created" | "updated" | "withdrawn";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
            /** @description On created and updated entries: the order as GET /external/orders answers it now */
            order?: components["schemas"]["Order"];
        };
        /** @description A release package (https://standard.open-contracting.org/schema/1__1__5/release-package-schema.json); only a page of /v1/ocds/releases past the end, which gives the cursor to resume from, has no release */
        OcdsReleasePackage: {
            /** Format: uri */
            uri: string;
            /** @enum {string} */
            version: "1.1";
            extensions: string[];
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            publishedDate: string;
            publisher: components["schemas"]["OcdsPublisher"];
            /** Format: uri */
            license: string;
            /** Format: uri */
            publicationPolicy?: string;
            releases: components["schemas"]["OcdsRelease"][];
            links?: components["schemas"]["OcdsLinks"];
        };
        /** @description Who publishes (OCDS_PUBLISHER_NAME, OCDS_PUBLISHER_URI) */
        OcdsPublisher: {
            name: string;
            /** Format: uri */
            uri?: string;
        };
        /** @description A release (https://standard.open-contracting.org/schema/1__1__5/release-schema.json), as compras fills it: docs/ocds-mapping.md, field by field */
        OcdsRelease: {
            /** @description OCDS_PREFIX, a hyphen and the process UUID */
            ocid: string;
            /** @description The ocid, a hyphen and the version; a compiled release: the ocid, a hyphen and its date */
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            date: string;
            tag: ("tender" | "tenderUpdate" | "tenderCancellation" | "award" | "awardUpdate" | "awardCancellation" | "contract" | "contractUpdate" | "contractAmendment" | "implementation" | "implementationUpdate" | "contractTermination" | "compiled")[];
            /** @enum {string} */
            initiationType: "tender";
            parties: components["schemas"]["OcdsParty"][];
            buyer: components["schemas"]["OcdsOrganizationReference"];
            tender?: components["schemas"]["OcdsTender"];
            awards?: components["schemas"]["OcdsAward"][];
            contracts?: components["schemas"]["OcdsContract"][];
            /** @enum {string} */
            language: "pt";
        };
        /** @description An organization or person the release names, once, with every role it plays */
        OcdsParty: {
            /** @description `BR-CNPJ-<cnpj>` for a company or organ, `pessoa-N` for a person */
            id: string;
            name: string;
            identifier?: components["schemas"]["OcdsIdentifier"];
            roles: ("buyer" | "procuringEntity" | "tenderer" | "supplier")[];
        };
        /** @description A CNPJ; a person has none (no value derived from a CPF is published) */
        OcdsIdentifier: {
            /** @enum {string} */
            scheme: "BR-CNPJ";
            id: string;
            legalName: string;
        };
        /** @description A party, by its id in the release */
        OcdsOrganizationReference: {
            id: string;
            name: string;
        };
        /** @description The direct contract or public call */
        OcdsTender: {
            /** @description The bidding's UUID, or its PNCP control number (numeroControlePNCP) when it came from PNCP */
            id: string;
            title: string;
            description: string;
            /** @enum {string} */
            status: "active" | "complete" | "cancelled" | "unsuccessful";
            procuringEntity: components["schemas"]["OcdsOrganizationReference"];
            value?: components["schemas"]["OcdsValue"];
            /** @enum {string} */
            procurementMethod: "direct" | "open" | "selective" | "limited";
            /** @description The modality, as spec 2.3 names it */
            procurementMethodDetails: string;
            awardCriteriaDetails?: string;
            tenderPeriod?: components["schemas"]["OcdsPeriod"];
            numberOfTenderers: number;
            tenderers?: components["schemas"]["OcdsOrganizationReference"][];
            items?: components["schemas"]["OcdsItem"][];
            documents?: components["schemas"]["OcdsDocument"][];
        };
        /** @description An amount in reais */
        OcdsValue: {
            amount: number;
            /** @enum {string} */
            currency: "BRL";
        };
        /** @description A period: a day of ours starts at 00:00:00 and ends at 23:59:59 Brasília time (-03:00) */
        OcdsPeriod: {
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            startDate?: string;
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            endDate?: string;
        };
        /** @description An item of a contratação imported from PNCP */
        OcdsItem: {
            /** @description The item's number in its contratação (PNCP's numeroItem) */
            id: string;
            description: string;
            quantity: number;
            unit: components["schemas"]["OcdsUnit"];
        };
        /** @description The unit as published; its value the unit price: estimated in a tender, homologated in an award */
        OcdsUnit: {
            name: string;
            value?: components["schemas"]["OcdsValue"];
        };
        /** @description A published document */
        OcdsDocument: {
            id: string;
            title: string;
            /** Format: uri */
            url: string;
        };
        /** @description An ARP (the framework agreement), or the award of a contract that came from none */
        OcdsAward: {
            /** @description An ARP's UUID, `<contract uuid>-award` for a contract with no ARP, or `<bidding uuid>-result-N` for the results of a contratação imported from PNCP that went to its N-th supplier */
            id: string;
            title: string;
            description?: string;
            /** @enum {string} */
            status: "pending" | "active" | "cancelled";
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            date?: string;
            value?: components["schemas"]["OcdsValue"];
            suppliers?: components["schemas"]["OcdsOrganizationReference"][];
            items?: components["schemas"]["OcdsItem"][];
            contractPeriod?: components["schemas"]["OcdsPeriod"];
            documents?: components["schemas"]["OcdsDocument"][];
            amendments?: components["schemas"]["OcdsAmendment"][];
        };
        /** @description An additive term: its number, the day it was signed, its kind and what it says */
        OcdsAmendment: {
            id: string;
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            date: string;
            rationale: string;
            description: string;
        };
        /** @description A contract */
        OcdsContract: {
            /** Format: uuid */
            id: string;
            awardID: string;
            title: string;
            description: string;
            /** @enum {string} */
            status: "pending" | "active" | "terminated" | "cancelled";
            period: components["schemas"]["OcdsPeriod"];
            value: components["schemas"]["OcdsValue"];
            documents?: components["schemas"]["OcdsDocument"][];
            implementation?: components["schemas"]["OcdsImplementation"];
            amendments?: components["schemas"]["OcdsAmendment"][];
        };
        /** @description The supply orders */
        OcdsImplementation: {
            milestones: components["schemas"]["OcdsMilestone"][];
        };
        /** @description A supply order, a delivery milestone of its contract; `value` is the milestone-value extension's */
        OcdsMilestone: {
            /** @description The supply order's number */
            id: string;
            title: string;
            /** @enum {string} */
            type: "delivery";
            description: string;
            /**
             * Format: date-time
             * @description The order's delivery deadline
             */
            dueDate: string;
            /** @enum {string} */
            status: "scheduled" | "met" | "partiallyMet";
            value?: components["schemas"]["OcdsValue"];
        };
        /** @description The neighbouring pages, with the same filters */
        OcdsLinks: {
            /** Format: uri */
            next?: string;
            /** Format: uri */
            prev?: string;
        };
        /** @description A record package of one process (https://standard.open-contracting.org/schema/1__1__5/record-package-schema.json) */
        OcdsRecordPackage: {
            /** Format: uri */
            uri: string;
            /** @enum {string} */
            version: "1.1";
            extensions: string[];
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            publishedDate: string;
            publisher: components["schemas"]["OcdsPublisher"];
            /** Format: uri */
            license: string;
            /** Format: uri */
            publicationPolicy?: string;
            records: components["schemas"]["OcdsRecord"][];
        };
        /** @description One contracting process */
        OcdsRecord: {
            ocid: string;
            releases: components["schemas"]["OcdsLinkedRelease"][];
            compiledRelease: components["schemas"]["OcdsRelease"];
            versionedRelease?: components["schemas"]["OcdsVersionedRelease"];
        };
        /** @description A release of the process, linked by its address */
        OcdsLinkedRelease: {
            /**
             * Format: uri
             * @description GET /v1/ocds/releases/{id}, with the id as the fragment
             */
            url: string;
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            date: string;
            tag: ("tender" | "tenderUpdate" | "tenderCancellation" | "award" | "awardUpdate" | "awardCancellation" | "contract" | "contractUpdate" | "contractAmendment" | "implementation" | "implementationUpdate" | "contractTermination")[];
        };
        /** @description With versioned=true: every value each field had, with the release that gave it (https://standard.open-contracting.org/schema/1__1__5/versioned-release-validation-schema.json) */
        OcdsVersionedRelease: {
            ocid: string;
        } & {
            [key: string]: unknown;
        };
        /** @description The fields every package of this publication carries */
        OcdsPackageMetadata: {
            /** Format: uri */
            uri: string;
            /** @enum {string} */
            version: "1.1";
            extensions: string[];
            /**
             * Format: date-time
             * @description ISO 8601, with its offset
             */
            publishedDate: string;
            publisher: components["schemas"]["OcdsPublisher"];
            /** Format: uri */
            license: string;
            /** Format: uri */
            publicationPolicy?: string;
        };
        PublicChangePage: {
            data: components["schemas"]["PublicChange"][];
            /**
             * @description Where the next page starts: the last entry's cursor, or the one asked for when the page is empty
             * @example YzEuMTIzNDU
             */
            next_cursor: string;
            /** @description Whether entries follow this page already */
            has_more: boolean;
        };
        PublicChange: components["schemas"]["ContractChange"] | components["schemas"]["DirectContractChange"] | components["schemas"]["PublicCallChange"] | components["schemas"]["ArpChange"] | components["schemas"]["Withdrawal"];
        /** @description A contract created or updated; with with_records=true, `record` is the contract as GET /v1/transparency/contracts/{id} serves it now (its latest state, not this entry's) */
        ContractChange: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /**
             * @description The resource: its listing and detail are under /v1/transparency/contracts
             * @enum {string}
             */
            kind: "contracts";
            /**
             * Format: uuid
             * @description The record's id
             */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** @description Its document now shows the change */
            change: "created" | "updated";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
            record?: components["schemas"]["Contract"];
        };
        Contract: {
            /** Format: uuid */
            bidding_uuid: string | null;
            contract_number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string;
            provider_company_name: string;
            contractor_company_name: string;
            managers: components["schemas"]["Person"][];
            inspectors: components["schemas"]["Person"][];
            commitments: components["schemas"]["Commitment"][];
            /** @enum {string} */
            bidding_modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            term_title: string;
            bidding_number: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_start: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_end: string;
            documents: components["schemas"]["Document"][];
            terms: components["schemas"]["Term"][];
            orders: components["schemas"]["OrderSummary"][];
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
        };
        Person: {
            role: string;
            name: string;
            /**
             * @description Masked: only the middle digits are visible
             * @example ***.456.789-**
             */
            cpf: string;
            office: string;
        };
        Commitment: {
            year: number;
            number: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            emission_date: string;
            description: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            value: string;
            expense_account_code: string;
            expense_account_name: string;
        };
        Document: {
            /** Format: uuid */
            uuid: string;
            /** @description File name */
            name: string;
            /** Format: uri */
            url: string;
        };
        /** @description An additive term */
        Term: {
            number: string;
            /** @example Aditivo de prazo */
            kind: string;
            description: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            signature_date: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_start: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_end: string | null;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            value: string | null;
            documents: components["schemas"]["Document"][];
        };
        /** @description A supply order, as much of it as is public */
        OrderSummary: {
            /** @description Order number */
            number: string;
            /** @description Object of the order */
            object: string;
            /**
             * @description Current status (spec 3)
             * @enum {string}
             */
            status_title: "Emitida" | "Recebido total" | "Recebido parcialmente" | "Recebido provisoriamente";
            /**
             * @description Total value of the order
             * @example 1234.50
             */
            amount_total: string;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with microseconds and a trailing Z
             * @example 2025-03-10T14:30:15.123456Z
             */
            deadline_delivery: string;
            /** @description Name of the responsible supplier */
            provider_name: string;
            /** @description CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-** */
            provider_document: string;
        };
        /** @description A direct contract created or updated; with with_records=true, `record` is the direct contract as GET /v1/transparency/direct-contracts/{id} serves it now (its latest state, not this entry's) */
        DirectContractChange: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /**
             * @description The resource: its listing and detail are under /v1/transparency/direct-contracts
             * @enum {string}
             */
            kind: "direct-contracts";
            /**
             * Format: uuid
             * @description The record's id
             */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** @description Its document now shows the change */
            change: "created" | "updated";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
            record?: components["schemas"]["Bidding"];
        };
        /** @description A direct contract or public call (one shape for both) */
        Bidding: {
            number: string;
            /** @enum {string} */
            modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            budget_secret: boolean;
            /** @description One of the values listed today; later versions may add others */
            status: "Publicado" | "Em disputa" | "Em julgamento" | "Em habilitação" | "Em recurso" | "Adjudicado" | "Homologado" | "Suspenso" | "Revogado" | "Anulado" | "Deserto" | "Fracassado" | "Cancelado" | "Concluído" | (string & {});
            register_price: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with microseconds
             * @example 2025-03-10T14:30:15.123456Z
             */
            opening_date: string | null;
            object_details: string;
            company_name: string;
            electronic_dispute_mode: string | null;
            adjudication_mode: string | null;
            judgment_criteria: string | null;
            competent_authority: string | null;
            agent: string | null;
            type_range_bids: string | null;
            range_bids: string | null;
            /**
             * @description Estimated total; null while the budget is secret (budget_secret)
             * @example 1234.50
             */
            sum_amount_total: string | null;
            precision: number;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            sum_amount_total_finish: string | null;
            documents: components["schemas"]["Document"][];
            providers: components["schemas"]["Provider"][];
            arps: components["schemas"]["ArpSummary"][];
            contracts: components["schemas"]["ContractSummary"][];
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
            /** @description The administrative process (processo) */
            process: string | null;
            /** @description The legal basis of the contracting (amparoLegal.nome) */
            legal_basis: string | null;
            /**
             * Format: date-time
             * @description When the proposal period closes (dataEncerramentoProposta)
             * @example 2025-03-10T14:30:15.123456Z
             */
            closing_date: string | null;
            additional_info: string | null;
            /**
             * Format: uri
             * @description The contracting on the system it was run in (linkSistemaOrigem)
             */
            origin_url: string | null;
            items: components["schemas"]["TenderItem"][];
            results: components["schemas"]["TenderResult"][];
        };
        /** @description A supplier taking part in a direct contract or public call */
        Provider: {
            name: string;
            /** @description CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-** */
            document: string;
            representative_name: string | null;
        };
        /** @description A linked ARP; GET /v1/transparency/arps/{id} has the rest */
        ArpSummary: {
            /** Format: uuid */
            id: string;
            number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string | null;
            provider_company_name: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_signature: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_expiration: string;
            /** @description One of the values listed today; later versions may add others */
            management_status: "Aguardando assinatura" | "Vigente" | "Suspenso" | "Encerrado" | "Rescindido" | "Cancelado" | (string & {});
        };
        /** @description A linked contract; GET /v1/transparency/contracts/{id} has the rest */
        ContractSummary: {
            /** Format: uuid */
            id: string;
            contract_number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string;
            provider_company_name: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_start: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_end: string;
            /** @description One of the values listed today; later versions may add others */
            management_status: "Aguardando assinatura" | "Vigente" | "Suspenso" | "Encerrado" | "Rescindido" | "Cancelado" | (string & {});
        };
        /** @description An item of a direct contract or public call, with its estimate */
        TenderItem: {
            /** @description Item number */
            number_item: number;
            /** @description Item description */
            description: string;
            /** @description As published */
            unit_measurement: string;
            /** @description Quantity (decimal) */
            quantity: number;
            /** @description Estimated unit price; null when not published (a secret budget) */
            estimated_amount: number | null;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            estimated_total: string | null;
        };
        /** @description A result of an item: its supplier, and the quantity and unit price homologated */
        TenderResult: {
            /** @description Its item (number_item) */
            number_item: number;
            name: string;
            /** @description CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-** */
            document: string;
            quantity: number;
            amount: number;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string;
            /** @description Discount on the estimate, in percent */
            discount: number | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            result_date: string | null;
        };
        /** @description A public call created or updated; with with_records=true, `record` is the public call as GET /v1/transparency/public-calls/{id} serves it now (its latest state, not this entry's) */
        PublicCallChange: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /**
             * @description The resource: its listing and detail are under /v1/transparency/public-calls
             * @enum {string}
             */
            kind: "public-calls";
            /**
             * Format: uuid
             * @description The record's id
             */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** @description Its document now shows the change */
            change: "created" | "updated";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
            record?: components["schemas"]["Bidding"];
        };
        /** @description A ARP created or updated; with with_records=true, `record` is the ARP as GET /v1/transparency/arps/{id} serves it now (its latest state, not this entry's) */
        ArpChange: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /**
             * @description The resource: its listing and detail are under /v1/transparency/arps
             * @enum {string}
             */
            kind: "arps";
            /**
             * Format: uuid
             * @description The record's id
             */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** @description Its document now shows the change */
            change: "created" | "updated";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
            record?: components["schemas"]["Arp"];
        };
        Arp: {
            /** Format: uuid */
            bidding_uuid: string | null;
            number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string | null;
            company_name: string;
            provider_company_name: string | null;
            provider_representative_name: string | null;
            /** @enum {string} */
            bidding_modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            bidding_number: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_signature: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_expiration: string;
            documents: components["schemas"]["Document"][];
            contracts: components["schemas"]["ContractSummary"][];
            terms: components["schemas"]["Term"][];
            orders: components["schemas"]["OrderSummary"][];
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
        };
        Withdrawal: {
            /**
             * @description The entry's place in its feed: give it as `after` to read on from it
             * @example YzEuMTIzNDU
             */
            cursor: string;
            /** @description The resource the record was of */
            kind: "contracts" | "direct-contracts" | "public-calls" | "arps";
            /**
             * Format: uuid
             * @description The record's id
             */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /**
             * @description Published by mistake and gone: a mirror deletes it (a tombstone, never with a record)
             * @enum {string}
             */
            change: "withdrawn";
            /**
             * Format: date-time
             * @description When the import that made the change ran: ISO 8601 UTC with microseconds
             * @example 2026-03-10T14:30:15.123456Z
             */
            changed_at: string;
        };
        /** @description An integrity indicator raised: a reason to open the record, never a verdict */
        Flag: {
            /**
             * @description The indicator's code (docs/indicators.md)
             * @enum {string}
             */
            code: "BR-LIMITE-DISPENSA" | "R011" | "BR-ADITIVO-25" | "R018" | "BR-PRAZO-PROPOSTA" | "R017" | "R050" | "R013" | "R051";
            /** @description What the indicator flags, in Portuguese */
            title: string;
            /** @description Why this record is flagged, in one Portuguese sentence with the rule's figures */
            reason: string;
            /** @description The flag's year: its record's (a direct contract's date, a contract's start) */
            year: number;
            /** Format: uuid */
            organization_uuid: string;
            organization_name: string;
            /** @description The suppliers the flag names (none for an organization-wide one) */
            providers: {
                /** @description The supplier's CNPJ, or a person's CPF masked */
                document: string;
                name: string;
            }[];
            /** @description The rule's figures, as the reason quotes them: money as text with two decimals, shares from 0 to 1 (docs/indicators.md names each indicator's) */
            figures: {
                [key: string]: unknown;
            };
            /** @description The records the flag is about, in the order the reason reads them */
            records: {
                /** @description direct-contracts, public-calls, contracts, arps or organizations */
                kind: string;
                id: string;
                /** @description Where the API gives the record */
                link: string;
            }[];
        };
        History: {
            /** @example contracts */
            kind: string;
            /** Format: uuid */
            id: string;
            versions: {
                /** @description From 1, the oldest */
                version: number;
                /**
                 * Format: date-time
                 * @description When the import that made it ran; null for a record published before the change log
                 */
                changed_at: string | null;
                change: "created" | "updated";
                changes: components["schemas"]["Difference"][];
            }[];
        };
        Difference: {
            /**
             * @description Where: a field, or a path into a relation whose elements are named by their number, name or id (`terms[3].value`, `commitments[2025NE000123]`)
             * @example amount_total
             */
            field: string;
            /**
             * @description The same, in Portuguese
             * @example Termos aditivos › 3 › Valor
             */
            label: string;
            /** @description The value before; null for what the version added */
            before: unknown;
            /** @description The value after; null for what it removed */
            after: unknown;
        };
        ContractVersion: {
            kind: string;
            /** Format: uuid */
            id: string;
            /** @description From 1, the oldest */
            version: number;
            /**
             * Format: date-time
             * @description When the import that made it ran; null for a record published before the change log
             */
            changed_at: string | null;
            change: "created" | "updated";
            record: components["schemas"]["Contract"];
        };
        ContractPage: {
            data: components["schemas"]["ContractItem"][];
            current_page: number;
            per_page: number;
            total: number;
            last_page: number;
            /** @description 1-based position of the first row; null on an empty page */
            from: number | null;
            /** @description 1-based position of the last row; null on an empty page */
            to: number | null;
            /** @description The next page by cursor (give it as `cursor`): it starts after this page's last row, so it holds still while imports run; null on the last page */
            next_cursor: string | null;
        };
        /** @description Relation arrays appear when with_relations names them */
        ContractItem: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** Format: uuid */
            bidding_uuid: string | null;
            contract_number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string;
            provider_company_name: string;
            contractor_company_name: string;
            /** @enum {string} */
            bidding_modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            term_title: string;
            bidding_number: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_start: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_end: string;
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
            /** @description One of the values listed today; later versions may add others */
            management_status: "Aguardando assinatura" | "Vigente" | "Suspenso" | "Encerrado" | "Rescindido" | "Cancelado" | (string & {});
            managers?: components["schemas"]["Person"][];
            inspectors?: components["schemas"]["Person"][];
            commitments?: components["schemas"]["Commitment"][];
            documents?: components["schemas"]["Document"][];
            terms?: components["schemas"]["Term"][];
            orders?: components["schemas"]["OrderSummary"][];
        };
        BiddingVersion: {
            kind: string;
            /** Format: uuid */
            id: string;
            /** @description From 1, the oldest */
            version: number;
            /**
             * Format: date-time
             * @description When the import that made it ran; null for a record published before the change log
             */
            changed_at: string | null;
            change: "created" | "updated";
            record: components["schemas"]["Bidding"];
        };
        BiddingPage: {
            data: components["schemas"]["BiddingItem"][];
            current_page: number;
            per_page: number;
            total: number;
            last_page: number;
            /** @description 1-based position of the first row; null on an empty page */
            from: number | null;
            /** @description 1-based position of the last row; null on an empty page */
            to: number | null;
            /** @description The next page by cursor (give it as `cursor`): it starts after this page's last row, so it holds still while imports run; null on the last page */
            next_cursor: string | null;
        };
        /** @description Relation arrays appear when with_relations names them */
        BiddingItem: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            number: string;
            /** @enum {string} */
            modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            budget_secret: boolean;
            /** @description One of the values listed today; later versions may add others */
            status: "Publicado" | "Em disputa" | "Em julgamento" | "Em habilitação" | "Em recurso" | "Adjudicado" | "Homologado" | "Suspenso" | "Revogado" | "Anulado" | "Deserto" | "Fracassado" | "Cancelado" | "Concluído" | (string & {});
            register_price: boolean;
            /**
             * Format: date-time
             * @description ISO 8601 UTC with microseconds
             * @example 2025-03-10T14:30:15.123456Z
             */
            opening_date: string | null;
            object_details: string;
            company_name: string;
            electronic_dispute_mode: string | null;
            adjudication_mode: string | null;
            judgment_criteria: string | null;
            competent_authority: string | null;
            agent: string | null;
            type_range_bids: string | null;
            range_bids: string | null;
            /**
             * @description Estimated total; null while the budget is secret (budget_secret)
             * @example 1234.50
             */
            sum_amount_total: string | null;
            precision: number;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            sum_amount_total_finish: string | null;
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
            /** @description The administrative process (processo) */
            process: string | null;
            /** @description The legal basis of the contracting (amparoLegal.nome) */
            legal_basis: string | null;
            /**
             * Format: date-time
             * @description When the proposal period closes (dataEncerramentoProposta)
             * @example 2025-03-10T14:30:15.123456Z
             */
            closing_date: string | null;
            additional_info: string | null;
            /**
             * Format: uri
             * @description The contracting on the system it was run in (linkSistemaOrigem)
             */
            origin_url: string | null;
            documents?: components["schemas"]["Document"][];
            providers?: components["schemas"]["Provider"][];
            arps?: components["schemas"]["ArpSummary"][];
            contracts?: components["schemas"]["ContractSummary"][];
        };
        ArpVersion: {
            kind: string;
            /** Format: uuid */
            id: string;
            /** @description From 1, the oldest */
            version: number;
            /**
             * Format: date-time
             * @description When the import that made it ran; null for a record published before the change log
             */
            changed_at: string | null;
            change: "created" | "updated";
            record: components["schemas"]["Arp"];
        };
        ArpPage: {
            data: components["schemas"]["ArpItem"][];
            current_page: number;
            per_page: number;
            total: number;
            last_page: number;
            /** @description 1-based position of the first row; null on an empty page */
            from: number | null;
            /** @description 1-based position of the last row; null on an empty page */
            to: number | null;
            /** @description The next page by cursor (give it as `cursor`): it starts after this page's last row, so it holds still while imports run; null on the last page */
            next_cursor: string | null;
        };
        /** @description Relation arrays appear when with_relations names them */
        ArpItem: {
            /** Format: uuid */
            id: string;
            /** Format: uuid */
            organization_uuid: string;
            /** Format: uuid */
            bidding_uuid: string | null;
            number: string;
            object_details: string;
            /**
             * @description Decimal text with two decimals
             * @example 1234.50
             */
            amount_total: string | null;
            company_name: string;
            provider_company_name: string | null;
            provider_representative_name: string | null;
            /** @enum {string} */
            bidding_modality: "Adesão" | "Pregão Eletrônico" | "Pregão Presencial" | "Tomada de Preço" | "Concorrência - Presencial" | "Chamamento Público" | "Carta Convite" | "Dispensa sem Disputa" | "Inexigibilidade" | "Leilão Presencial" | "Regime Diferenciado de Contratação" | "Dispensa Eletrônica" | "Diálogo Competitivo" | "Procedimento da Lei 13.393/2016" | "Concurso" | "Concorrência - Eletrônica" | "Manifestação de Interesse" | "Pré-Qualificação" | "Credenciamento" | "Leilão Eletrônico";
            bidding_number: string | null;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_signature: string;
            /**
             * Format: date
             * @description YYYY-MM-DD
             * @example 2025-03-10
             */
            date_expiration: string;
            /** @description Its numeroControlePNCP, when it came from PNCP (docs/pncp-mapping.md) */
            pncp_id: string | null;
            /**
             * Format: uri
             * @description Its page on PNCP, when it came from PNCP
             */
            pncp_url: string | null;
            /**
             * Format: date-time
             * @description When PNCP last changed it (dataAtualizacaoGlobal): an import never replaces it with an older version
             * @example 2025-03-10T14:30:15.123456Z
             */
            pncp_updated_at: string | null;
            unit_code: string | null;
            unit_name: string | null;
            unit_city: string | null;
            unit_ibge_code: string | null;
            unit_uf: string | null;
            /** @description One of the values listed today; later versions may add others */
            management_status: "Aguardando assinatura" | "Vigente" | "Suspenso" | "Encerrado" | "Rescindido" | "Cancelado" | (string & {});
            documents?: components["schemas"]["Document"][];
            terms?: components["schemas"]["Term"][];
            orders?: components["schemas"]["OrderSummary"][];
        };
        Lookup: {
            id: number;
            name: string;
        };
        PriceResearch: {
            /** @description One entry per unit of measurement, most items first */
            summary: components["schemas"]["PriceSummary"][];
            items: {
                data: components["schemas"]["PriceItem"][];
                /** @description The next page of items (cursor), or null at the last */
                next_cursor: string | null;
                has_more: boolean;
            };
        };
        PriceSummary: {
            /** @description The unit of measurement: each unit has an entry, units are never mixed */
            unit: string;
            /** @description Items found in this unit */
            items: number;
            /** @description Distinct organizations that bought them */
            organizations: number;
            /** @description Distinct suppliers that sold them */
            suppliers: number;
            /**
             * @description The lowest unit price; text with two decimals
             * @example 12.50
             */
            min: string;
            /**
             * @description The first quartile, by linear interpolation (percentile_cont, QUARTILE.INC); text with two decimals
             * @example 12.50
             */
            p25: string;
            /**
             * @description The median; text with two decimals
             * @example 12.50
             */
            median: string;
            /**
             * @description The third quartile, by linear interpolation; text with two decimals
             * @example 12.50
             */
            p75: string;
            /**
             * @description The highest unit price; text with two decimals
             * @example 12.50
             */
            max: string;
            /**
             * @description The mean unit price; text with two decimals
             * @example 12.50
             */
            mean: string;
            /**
             * @description The mean unit price weighted by quantity; text with two decimals
             * @example 12.50
             */
            weighted_mean: string;
            /** @description Prices outside [p25 − 1.5 × IQR, p75 + 1.5 × IQR] */
            outliers: number;
            /** @description The same figures without the outliers */
            sanitized: {
                /** @description Items found in this unit without the outliers */
                items: number;
                /**
                 * @description The lowest unit price without the outliers; text with two decimals
                 * @example 12.50
                 */
                min: string;
                /**
                 * @description The median without the outliers; text with two decimals
                 * @example 12.50
                 */
                median: string;
                /**
                 * @description The highest unit price without the outliers; text with two decimals
                 * @example 12.50
                 */
                max: string;
                /**
                 * @description The mean unit price without the outliers; text with two decimals
                 * @example 12.50
                 */
                mean: string;
            };
        };
        /** @description A price: an item of a supply order (source order) or a homologated result of a direct contract or public call (source result), with its organization and supplier; its unit price as text with two decimals, as the transparency API writes money */
        PriceItem: {
            /** @description Item description */
            description: string;
            /** @description Item brand (an order's item only) */
            brand: string | null;
            /** @description Unit of measure, as published */
            unit_measurement: string;
            /** @description The unit the statistics compare it in: unit_measurement normalized (UN, Unidade, UNID and und. are UN; docs/prices.md) */
            unit: string;
            /** @description Quantity (a result may have decimals) */
            quantity: number;
            /**
             * @description Unit value
             * @example 1234.50
             */
            amount: string;
            /**
             * @description Total value of the item
             * @example 1234.50
             */
            amount_total: string;
            /**
             * @description order: an item of a supply order; result: a homologated result of a contratação (PNCP)
             * @enum {string}
             */
            source: "order" | "result";
            /**
             * Format: date
             * @description The price's date: the order's delivery deadline, or the result's date (else its bidding's opening)
             * @example 2025-03-10
             */
            date: string;
            /** @description The order number */
            order_number: string | null;
            /**
             * Format: date-time
             * @description The order's date: its delivery deadline, the one date every order has
             * @example 2025-03-10T14:30:15.123456Z
             */
            deadline_delivery: string | null;
            /**
             * @description The order's status
             * @enum {string|null}
             */
            status_title: "Emitida" | "Recebido total" | "Recebido parcialmente" | "Recebido provisoriamente" | null;
            /**
             * Format: uuid
             * @description A result's direct contract or public call (GET /v1/transparency/direct-contracts/{id} or public-calls)
             */
            bidding_id: string | null;
            /**
             * @description A result's bidding kind: direct_contract or public_call (the path to read it at)
             * @enum {string|null}
             */
            bidding_type: "direct_contract" | "public_call" | null;
            bidding_number: string | null;
            /** Format: uuid */
            organization_uuid: string;
            /** @description The organization's name */
            organization_name: string;
            /** @description The supplier's name */
            provider_name: string;
            /** @description CNPJ (14 digits) in full; a CPF (11 digits) masked as ***.456.789-** */
            provider_document: string;
            /** @description The contract the order executes, when it names one */
            contract_number: string | null;
            /**
             * Format: uuid
             * @description The contract's id (GET /v1/transparency/contracts/{id}), when it is published
             */
            contract_id: string | null;
            /** @description The ARP the order executes, when it names one */
            arp_number: string | null;
            /**
             * Format: uuid
             * @description The ARP's id (GET /v1/transparency/arps/{id}), when it is published
             */
            arp_id: string | null;
            /** @description Whether the unit price lies outside its unit's [p25 − 1.5 × IQR, p75 + 1.5 × IQR] */
            outlier: boolean;
        };
        SupplierList: {
            data: {
                document: string;
                name: string;
            }[];
            /** @description The next page (cursor), or null at the last */
            next_cursor: string | null;
            has_more: boolean;
        };
        SupplierPage: {
            /** @description The CNPJ, 14 digits */
            document: string;
            /** @description The name the last import gave it */
            name: string;
            /** @description Every name an import gave this CNPJ, most recently seen first. A withdrawal does not take a name back, as it does not change the supplier's name either */
            names: {
                name: string;
                /**
                 * Format: date
                 * @description The day an import first gave this name
                 */
                first_seen: string;
                /**
                 * Format: date
                 * @description The day an import last gave it
                 */
                last_seen: string;
            }[];
            totals: {
                contracts: components["schemas"]["Figures"];
                direct_contracts: components["schemas"]["Figures"];
                arps: components["schemas"]["Figures"];
                orders: components["schemas"]["Figures"];
                /** @description Committed, each real once: contracts at their value; direct contracts that no contract (of the same supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates their main dates. The kinds above overlap and must not be added */
                committed: {
                    count: number;
                    /**
                     * @description Their value; text with two decimals
                     * @example 12.50
                     */
                    value: string;
                    /**
                     * Format: date
                     * @description The first main date
                     */
                    first: string | null;
                    /**
                     * Format: date
                     * @description The last main date
                     */
                    last: string | null;
                };
            };
            /** @description Newest year first; null for records without a date */
            years: {
                year: number | null;
                contracts: components["schemas"]["Figures"];
                direct_contracts: components["schemas"]["Figures"];
                arps: components["schemas"]["Figures"];
                orders: components["schemas"]["Figures"];
                /** @description Committed, each real once: contracts at their value; direct contracts that no contract (of the same supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates their main dates. The kinds above overlap and must not be added */
                committed: {
                    count: number;
                    /**
                     * @description Their value; text with two decimals
                     * @example 12.50
                     */
                    value: string;
                    /**
                     * Format: date
                     * @description The first main date
                     */
                    first: string | null;
                    /**
                     * Format: date
                     * @description The last main date
                     */
                    last: string | null;
                };
            }[];
            /** @description Every organization it supplied, by name */
            organizations: {
                /** Format: uuid */
                organization_uuid: string;
                organization_name: string;
                contracts: components["schemas"]["Figures"];
                direct_contracts: components["schemas"]["Figures"];
                arps: components["schemas"]["Figures"];
                orders: components["schemas"]["Figures"];
                /** @description Committed, each real once: contracts at their value; direct contracts that no contract (of the same supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates their main dates. The kinds above overlap and must not be added */
                committed: {
                    count: number;
                    /**
                     * @description Their value; text with two decimals
                     * @example 12.50
                     */
                    value: string;
                    /**
                     * Format: date
                     * @description The first main date
                     */
                    first: string | null;
                    /**
                     * Format: date
                     * @description The last main date
                     */
                    last: string | null;
                };
            }[];
        };
        /** @description Records of one kind: how many, their value, and their first and last main dates (a contract's start, an ARP's signature, a bidding's opening, an order's delivery deadline) */
        Figures: {
            count: number;
            /**
             * @description Their value; text with two decimals
             * @example 12.50
             */
            value: string;
            /**
             * Format: date
             * @description The first main date
             */
            first: string | null;
            /**
             * Format: date
             * @description The last main date
             */
            last: string | null;
        };
        OrganizationList: {
            data: {
                /** Format: uuid */
                uuid: string;
                name: string;
                document: string;
            }[];
            /** @description The next page (cursor), or null at the last */
            next_cursor: string | null;
            has_more: boolean;
        };
        OrganizationPage: {
            /** Format: uuid */
            uuid: string;
            name: string;
            /** @description The CNPJ, 14 digits */
            document: string;
            totals: {
                contracts: components["schemas"]["Figures"];
                direct_contracts: components["schemas"]["Figures"];
                public_calls: components["schemas"]["Figures"];
                arps: components["schemas"]["Figures"];
                orders: components["schemas"]["Figures"];
                /** @description Committed, each real once: contracts at their value; direct contracts that no contract (of the same supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates their main dates. The kinds above overlap and must not be added */
                committed: {
                    count: number;
                    /**
                     * @description Their value; text with two decimals
                     * @example 12.50
                     */
                    value: string;
                    /**
                     * Format: date
                     * @description The first main date
                     */
                    first: string | null;
                    /**
                     * Format: date
                     * @description The last main date
                     */
                    last: string | null;
                };
            };
            /** @description Newest year first; null for records without a date */
            years: {
                year: number | null;
                contracts: components["schemas"]["Figures"];
                direct_contracts: components["schemas"]["Figures"];
                public_calls: components["schemas"]["Figures"];
                arps: components["schemas"]["Figures"];
                orders: components["schemas"]["Figures"];
                /** @description Committed, each real once: contracts at their value; direct contracts that no contract (of the same supplier) carries, at their finished total when they have one; orders that no contract (of the same supplier) carries. An ARP's registered value is a ceiling, never added. Its count is of those commitments, its dates their main dates. The kinds above overlap and must not be added */
                committed: {
                    count: number;
                    /**
                     * @description Their value; text with two decimals
                     * @example 12.50
                     */
                    value: string;
                    /**
                     * Format: date
                     * @description The first main date
                     */
                    first: string | null;
                    /**
                     * Format: date
                     * @description The last main date
                     */
                    last: string | null;
                };
            }[];
            /** @description The suppliers the organization committed the most to (contracts, direct contracts and orders, each real once), at most 10 */
            top_suppliers: {
                /** @description CNPJ in full; a CPF (a person) masked as ***.456.789-** */
                document: string;
                name: string;
                /** @description Whether it is a company, with a page of its own */
                company: boolean;
                /** @description Its contracts with the organization */
                contracts: number;
                /** @description Its direct contracts that no contract of its carries */
                direct_contracts: number;
                /** @description Its orders that no contract of its carries */
                orders: number;
                /**
                 * @description What the organization committed to it, each real once (as `committed`); text with two decimals
                 * @example 12.50
                 */
                value: string;
            }[];
        };
        FlagPage: {
            data: components["schemas"]["Flag"][];
            /** @description The next page (cursor), or null at the last */
            next_cursor: string | null;
            has_more: boolean;
        };
        CardinalOutput: {
            /** @description Each id (an ocid, or BR-CNPJ- and a CNPJ) to its results: a code to a decimal */
            OCID: {
                [key: string]: {
                    [key: string]: number;
                };
            };
            /** @description Each id (an ocid, or BR-CNPJ- and a CNPJ) to its results: a code to a decimal */
            Buyer: {
                [key: string]: {
                    [key: string]: number;
                };
            };
            /** @description Each id (an ocid, or BR-CNPJ- and a CNPJ) to its results: a code to a decimal */
            Tenderer: {
                [key: string]: {
                    [key: string]: number;
                };
            };
            /** @description A comparison's quartiles and upper fence, of the newest year among the flags */
            Meta: {
                [key: string]: {
                    q1: number;
                    q3: number;
                    upper_fence: number;
                };
            };
        };
        FlagSummary: {
            /** @description Flags raised, over all codes */
            total: number;
            /** @description Each indicator, in the order docs/indicators.md gives them, with how many flags it raised */
            by_code: {
                /**
                 * @description The indicator's code (docs/indicators.md)
                 * @enum {string}
                 */
                code: "BR-LIMITE-DISPENSA" | "R011" | "BR-ADITIVO-25" | "R018" | "BR-PRAZO-PROPOSTA" | "R017" | "R050" | "R013" | "R051";
                title: string;
                count: number;
            }[];
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getOpenApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The OpenAPI document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example 3.0.3 */
                        openapi?: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description A malformed request (a bad header or URL), answered before routing */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getHealth: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status: string;
                    };
                };
            };
            /** @description A malformed request (a bad header or URL), answered before routing */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getReady: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status: string;
                        /** @description With DATABASE_REPLICA_URLS: each replica as last checked (every second). A replica out of the rotation leaves the instance ready: the primary serves its reads. */
                        replicas?: {
                            /**
                             * @description host:port/database
                             * @example 10.0.0.12:5432/compras
                             */
                            name: string;
                            /** @description up: serves reads; lagging: more than REPLICA_MAX_LAG behind; down: does not answer */
                            state: "starting" | "up" | "lagging" | "down" | "not a standby";
                            /** @description How far behind the primary it was at its last check, at most; null: unknown */
                            lag_seconds: number | null;
                        }[];
                    };
                };
            };
            /** @description A malformed request (a bad header or URL), answered before routing */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description Default Response */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example ok */
                        status: string;
                        /** @description With DATABASE_REPLICA_URLS: each replica as last checked (every second). A replica out of the rotation leaves the instance ready: the primary serves its reads. */
                        replicas?: {
                            /**
                             * @description host:port/database
                             * @example 10.0.0.12:5432/compras
                             */
                            name: string;
                            /** @description up: serves reads; lagging: more than REPLICA_MAX_LAG behind; down: does not answer */
                            state: "starting" | "up" | "lagging" | "down" | "not a standby";
                            /** @description How far behind the primary it was at its last check, at most; null: unknown */
                            lag_seconds: number | null;
                        }[];
                    };
                };
            };
        };
    };
    getOrderByNumber: {
        parameters: {
            query: {
                /** @description Number of the order. Required: without it the answer is the spec's 500 `Número da ordem é obrigatório`. */
                order_number: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The order with its items */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Ordem recuperada com sucesso */
                        message: string;
                        data: components["schemas"]["Order"];
                    };
                };
            };
            /** @description Token missing, malformed or invalid, or Authorization sent more than once: `Unauthorized` */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description Request limit exceeded (60 in any one second per token), or a failed token from an address past AUTH_FAILURE_LIMIT failures in the last minute: `Too Many Requests` */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description `Número da ordem é obrigatório` (order_number absent or blank), `Ordem não encontrada` (no such order for this organ) or `Erro interno do servidor` */
            500: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
        };
    };
    listOrderChanges: {
        parameters: {
            query?: {
                /** @description A cursor given by an earlier answer */
                after?: string;
                /** @description Entries a page */
                per_page?: number;
                /** @description Only entries changed at this instant or later (ISO 8601) */
                since?: string;
                /** @description Seconds to wait, when no entry follows the cursor, for the next import: the answer comes as soon as it commits, or empty when the time is up (at most 30) */
                wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the feed */
            200: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @example Alterações recuperadas com sucesso */
                        message: string;
                        data: components["schemas"]["OrderChangePage"];
                    };
                };
            };
            /** @description As the order query: `Unauthorized` */
            401: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description `Cursor desconhecido: after...`: a cursor of another log, of another organ or feed, or past the feed's end. Sync again from the start, without after */
            410: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description `Cursor inválido: after...` (a cursor this service did not give), or an unknown or invalid parameter, named */
            422: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description As the order query: `Too Many Requests` */
            429: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
            /** @description `Erro interno do servidor` */
            500: {
                headers: {
                    /** @description Requests allowed in the window */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until the window resets */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                        /** @description Always an empty array */
                        data: unknown[];
                    };
                };
            };
        };
    };
    exportRecords: {
        parameters: {
            query: {
                /** @description What to export */
                resource: "contracts" | "direct-contracts" | "public-calls" | "arps";
                /** @description The file type */
                format: "xlsx" | "csv";
                /** @description CSV field separator. Default `,`, with money as `1234.56`, a CNPJ as its 14 digits and dates in ISO 8601. `;` suits spreadsheets in Portuguese (Brazil): money then has the decimal comma, `1234,56`, which they read as a number; a CNPJ is written as people write it, `01.234.567/0001-89`, which they keep as text (its digits alone would become a number without its leading zeros); and a date is `31/12/2025`, an instant `31/12/2025 23:59:59` (UTC, as the column says), which they read as dates. */
                separator?: "," | ";";
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description Exact bidding number (surrounding spaces ignored) */
                bidding_number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/bidding-statuses */
                status_id?: number;
                /** @description An id of /helpers/management-statuses */
                management_status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
                /** @description One of the resource listing's sort values; newest first by default */
                sort?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter, named in the message */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over PUBLIC_RATE_LIMIT requests a minute from the address */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or `A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row) */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    exportPrices: {
        parameters: {
            query: {
                /** @description The file type */
                format: "xlsx" | "csv";
                /** @description CSV field separator. Default `,`, with money as `1234.56`, a CNPJ as its 14 digits and dates in ISO 8601. `;` suits spreadsheets in Portuguese (Brazil): money then has the decimal comma, `1234,56`, which they read as a number; a CNPJ is written as people write it, `01.234.567/0001-89`, which they keep as text (its digits alone would become a number without its leading zeros); and a date is `31/12/2025`, an instant `31/12/2025 23:59:59` (UTC, as the column says), which they read as dates. */
                separator?: "," | ";";
                /** @description Words of the item's description, matched as the listings' q is: Portuguese stems, accents and case aside ("caneta azul" finds "Caneta esferográfica azul"); websearch syntax ("-", "or", quotes) */
                q: string;
                /** @description The unit of measurement (UN, CX, PCT...), normalized as the prices are: Unidade, UNID and und. are UN */
                unit?: string;
                /** @description Where the prices come from: order (supply orders) or result (results of contratações, PNCP) */
                source?: string;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description The items' order: by unit price or by the order's date; a leading - sorts descending */
                sort?: "amount" | "-amount" | "date" | "-date";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter, named in the message; or `Pesquisa ampla demais...` */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over PUBLIC_RATE_LIMIT requests a minute from the address */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or `A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row) */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    exportIndicators: {
        parameters: {
            query: {
                /** @description The file type */
                format: "xlsx" | "csv";
                /** @description CSV field separator. Default `,`, with money as `1234.56`, a CNPJ as its 14 digits and dates in ISO 8601. `;` suits spreadsheets in Portuguese (Brazil): money then has the decimal comma, `1234,56`, which they read as a number; a CNPJ is written as people write it, `01.234.567/0001-89`, which they keep as text (its digits alone would become a number without its leading zeros); and a date is `31/12/2025`, an instant `31/12/2025 23:59:59` (UTC, as the column says), which they read as dates. */
                separator?: "," | ";";
                /** @description An indicator's code (docs/indicators.md) */
                code?: "BR-LIMITE-DISPENSA" | "R011" | "BR-ADITIVO-25" | "R018" | "BR-PRAZO-PROPOSTA" | "R017" | "R050" | "R013" | "R051";
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description The flags that name one record: its kind and id, `contracts/<uuid>` (direct-contracts, public-calls, arps, organizations alike); a detail gives the same flags beside its data */
                record?: string;
                /** @description The flag's year: its record's (a direct contract's date, a contract's start...) */
                year?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": string;
                    "text/csv; charset=utf-8": string;
                };
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over PUBLIC_RATE_LIMIT requests a minute from the address */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or `A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row) */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    downloadOcdsReleases: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Releases dated (last changed) from this day on, in UTC */
                date_from?: string;
                /** @description Releases dated (last changed) up to this day, inclusive, in UTC */
                date_to?: string;
                /** @description Every release ever published, the ones a later change replaced too, in the order they were published (oldest first), instead of each process's current release newest change first */
                history?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The releases, one a line */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter, named in the message */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over PUBLIC_RATE_LIMIT requests a minute from the address */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or `A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row) */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listChangesAsLines: {
        parameters: {
            query?: {
                /** @description A cursor given by an earlier answer (an entry's, or next_cursor): the entries after it. None: from the start */
                after?: string;
                /** @description Comma-separated kinds: contracts, direct-contracts, public-calls, arps. None: all */
                kinds?: ("contracts" | "direct-contracts" | "public-calls" | "arps")[];
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Only entries changed at this instant or later (ISO 8601): a first sync that needs no history */
                since?: string;
                /** @description true: each created or updated entry carries its record as its detail serves it now */
                with_records?: boolean;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entries, one a line, in the order of the feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/x-ndjson": string;
                };
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Cursor desconhecido: after...`, as GET /v1/transparency/changes */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter, or a cursor this service did not give */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Já há uma exportação deste endereço em andamento...` (one download at a time per address), or over PUBLIC_RATE_LIMIT requests a minute from the address */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Exportações demais em andamento...` (EXPORT_CONCURRENCY downloads already running; Retry-After), or `A exportação demorou demais...` (EXPORT_TIMEOUT passed before the first row) */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listOcdsReleases: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (at most 15 digits); 1 when not given */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Releases dated (last changed) from this day on, in UTC */
                date_from?: string;
                /** @description Releases dated (last changed) up to this day, inclusive, in UTC */
                date_to?: string;
                /** @description Read the processes in the order their releases changed, oldest change first, after this cursor (links.next carries the next one); empty (`after=`) to start from the first, as a request with neither `after` nor `page` does. A process whose release changes again moves past the cursor, so a crawler that follows links.next misses no change. Not with `page` */
                after?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A release package */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcdsReleasePackage"];
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Registro não encontrado.` (an empty page) or `Organização não encontrada.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsRecord: {
        parameters: {
            query?: {
                /** @description With the process's versionedRelease: every value each field had, and whence */
                versioned?: boolean;
            };
            header?: never;
            path: {
                /** @description The open contracting id, `ocds-xxxxxx-<uuid>` */
                ocid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A record package */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcdsRecordPackage"];
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The release id, `ocds-xxxxxx-<uuid>-<version>` */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A release package with one release */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcdsReleasePackage"];
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsPackageMetadata: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The package metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OcdsPackageMetadata"];
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsExtension: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The milestone-value extension: its metadata */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsExtensionSchema: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The extension's patch of the release schema */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOcdsExtensionDocumentation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The extension's documentation (its documentationUrl) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/markdown; charset=utf-8": string;
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listChanges: {
        parameters: {
            query?: {
                /** @description A cursor given by an earlier answer (an entry's, or next_cursor): the entries after it. None: from the start */
                after?: string;
                /** @description Entries a page, 1 to 1000 */
                per_page?: number;
                /** @description Comma-separated kinds: contracts, direct-contracts, public-calls, arps. None: all */
                kinds?: ("contracts" | "direct-contracts" | "public-calls" | "arps")[];
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Only entries changed at this instant or later (ISO 8601): a first sync that needs no history */
                since?: string;
                /** @description true: each created or updated entry carries its record as its detail serves it now */
                with_records?: boolean;
                /** @description Seconds to wait, when no entry follows the cursor, for the next import: the answer comes as soon as it commits, or empty when the time is up (at most 30) */
                wait?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of the feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["PublicChangePage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Cursor desconhecido: after...`: a cursor of another log (the database was loaded again), of another feed, or past the log's end. Sync again from the start, without after */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter, or a cursor this service did not give (`Cursor inválido...`) */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getContract: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contract's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract, and the flags that name it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Contract"];
                        /** @description The integrity flags that name this record, newest year first ([] when none): each a reason to open it, never a verdict (GET /v1/transparency/indicators?record=...) */
                        indicators: components["schemas"]["Flag"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getContractHistory: {
        parameters: {
            query?: {
                /** @description Kept for links made before /history/{version}: answered 308 to that address */
                version?: number;
            };
            header?: never;
            path: {
                /** @description The contract's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["History"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With version: the address of that version (Location), where its answer is */
            308: {
                headers: {
                    /** @description The version's own address */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getContractVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The contract's UUID */
                id: string;
                /** @description The version, from 1 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The contract as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["ContractVersion"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.`, or `Versão não encontrada.` for a version there is not */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listContracts: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (at most 15 digits); 1 when not given */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description Exact bidding number (surrounding spaces ignored) */
                bidding_number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/management-statuses */
                management_status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
                /** @description A field; a leading - sorts descending */
                sort?: "date_start" | "-date_start" | "date_end" | "-date_end" | "amount_total" | "-amount_total" | "contract_number" | "-contract_number";
                /** @description Comma-separated relations to add to each item: managers, inspectors, commitments, documents, terms, orders */
                with_relations?: ("managers" | "inspectors" | "commitments" | "documents" | "terms" | "orders")[];
                /** @description A page's next_cursor: the next page, after that page's last row (keyset), instead of `page` (not with it). Read by cursor, the pages hold still while imports add and change records: a record that is there for the whole read, its sort value unchanged, is shown once. The same sort must be asked. Cursors are signed: one that this service did not give (or made for another sort, or another database's) is refused */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of contracts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["ContractPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getDirectContract: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The direct contract's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The direct contract, and the flags that name it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Bidding"];
                        /** @description The integrity flags that name this record, newest year first ([] when none): each a reason to open it, never a verdict (GET /v1/transparency/indicators?record=...) */
                        indicators: components["schemas"]["Flag"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getDirectContractHistory: {
        parameters: {
            query?: {
                /** @description Kept for links made before /history/{version}: answered 308 to that address */
                version?: number;
            };
            header?: never;
            path: {
                /** @description The direct contract's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["History"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With version: the address of that version (Location), where its answer is */
            308: {
                headers: {
                    /** @description The version's own address */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getDirectContractVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The direct contract's UUID */
                id: string;
                /** @description The version, from 1 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The direct contract as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["BiddingVersion"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.`, or `Versão não encontrada.` for a version there is not */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listDirectContracts: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (at most 15 digits); 1 when not given */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/bidding-statuses */
                status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
                /** @description A field; a leading - sorts descending */
                sort?: "opening_date" | "-opening_date" | "number" | "-number" | "sum_amount_total" | "-sum_amount_total";
                /** @description Comma-separated relations to add to each item: documents, providers, arps, contracts */
                with_relations?: ("documents" | "providers" | "arps" | "contracts")[];
                /** @description A page's next_cursor: the next page, after that page's last row (keyset), instead of `page` (not with it). Read by cursor, the pages hold still while imports add and change records: a record that is there for the whole read, its sort value unchanged, is shown once. The same sort must be asked. Cursors are signed: one that this service did not give (or made for another sort, or another database's) is refused */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of direct contracts */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["BiddingPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getPublicCall: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The public call's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public call, and the flags that name it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Bidding"];
                        /** @description The integrity flags that name this record, newest year first ([] when none): each a reason to open it, never a verdict (GET /v1/transparency/indicators?record=...) */
                        indicators: components["schemas"]["Flag"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getPublicCallHistory: {
        parameters: {
            query?: {
                /** @description Kept for links made before /history/{version}: answered 308 to that address */
                version?: number;
            };
            header?: never;
            path: {
                /** @description The public call's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["History"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With version: the address of that version (Location), where its answer is */
            308: {
                headers: {
                    /** @description The version's own address */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getPublicCallVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The public call's UUID */
                id: string;
                /** @description The version, from 1 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The public call as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["BiddingVersion"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.`, or `Versão não encontrada.` for a version there is not */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listPublicCalls: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (at most 15 digits); 1 when not given */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/bidding-statuses */
                status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
                /** @description A field; a leading - sorts descending */
                sort?: "opening_date" | "-opening_date" | "number" | "-number" | "sum_amount_total" | "-sum_amount_total";
                /** @description Comma-separated relations to add to each item: documents, providers, arps, contracts */
                with_relations?: ("documents" | "providers" | "arps" | "contracts")[];
                /** @description A page's next_cursor: the next page, after that page's last row (keyset), instead of `page` (not with it). Read by cursor, the pages hold still while imports add and change records: a record that is there for the whole read, its sort value unchanged, is shown once. The same sort must be asked. Cursors are signed: one that this service did not give (or made for another sort, or another database's) is refused */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of public calls */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["BiddingPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getArp: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ARP's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ARP, and the flags that name it */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Arp"];
                        /** @description The integrity flags that name this record, newest year first ([] when none): each a reason to open it, never a verdict (GET /v1/transparency/indicators?record=...) */
                        indicators: components["schemas"]["Flag"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getArpHistory: {
        parameters: {
            query?: {
                /** @description Kept for links made before /history/{version}: answered 308 to that address */
                version?: number;
            };
            header?: never;
            path: {
                /** @description The ARP's UUID */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The history */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["History"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description With version: the address of that version (Location), where its answer is */
            308: {
                headers: {
                    /** @description The version's own address */
                    Location?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getArpVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The ARP's UUID */
                id: string;
                /** @description The version, from 1 */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ARP as it was */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["ArpVersion"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Registro não encontrado.`, or `Versão não encontrada.` for a version there is not */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listArps: {
        parameters: {
            query?: {
                /** @description Page number, from 1 (at most 15 digits); 1 when not given */
                page?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description Exact bidding number (surrounding spaces ignored) */
                bidding_number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/management-statuses */
                management_status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
                /** @description A field; a leading - sorts descending */
                sort?: "date_signature" | "-date_signature" | "date_expiration" | "-date_expiration" | "amount_total" | "-amount_total" | "number" | "-number";
                /** @description Comma-separated relations to add to each item: documents, terms, orders */
                with_relations?: ("documents" | "terms" | "orders")[];
                /** @description A page's next_cursor: the next page, after that page's last row (keyset), instead of `page` (not with it). Read by cursor, the pages hold still while imports add and change records: a record that is there for the whole read, its sort value unchanged, is shown once. The same sort must be asked. Cursors are signed: one that this service did not give (or made for another sort, or another database's) is refused */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of ARPs */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["ArpPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listBiddingModalities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The 20 bidding modalities (spec 2.3) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Lookup"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listBiddingStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Statuses of direct contracts and public calls (status_id) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Lookup"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listManagementStatuses: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Management statuses of contracts and ARPs (management_status_id) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["Lookup"][];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    feedContracts: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description Exact bidding number (surrounding spaces ignored) */
                bidding_number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/management-statuses */
                management_status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/atom+xml": string;
                };
            };
            /** @description Not modified: If-None-Match lists the ETag this feed has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description The database is unreachable, or the query ran past QUERY_TIMEOUT */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
        };
    };
    feedDirectContracts: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/bidding-statuses */
                status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/atom+xml": string;
                };
            };
            /** @description Not modified: If-None-Match lists the ETag this feed has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description The database is unreachable, or the query ran past QUERY_TIMEOUT */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
        };
    };
    feedPublicCalls: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/bidding-statuses */
                status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/atom+xml": string;
                };
            };
            /** @description Not modified: If-None-Match lists the ETag this feed has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description The database is unreachable, or the query ran past QUERY_TIMEOUT */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
        };
    };
    feedArps: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description Exact number (surrounding spaces ignored) */
                number?: string;
                /** @description Exact bidding number (surrounding spaces ignored) */
                bidding_number?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description An id of /helpers/management-statuses */
                management_status_id?: number;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description Only records whose published document changed at this instant or later (ISO 8601), as the change feed dates them; records published before the feed count as changed when it started */
                updated_since?: string;
                /** @description Exact PNCP control number (numeroControlePNCP) (surrounding spaces ignored) */
                pncp_id?: string;
                /** @description Full-text search over the object and names; accents and case do not matter */
                q?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The feed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/atom+xml": string;
                };
            };
            /** @description Not modified: If-None-Match lists the ETag this feed has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
            /** @description The database is unreachable, or the query ran past QUERY_TIMEOUT */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/xml; charset=utf-8": string;
                };
            };
        };
    };
    researchPrices: {
        parameters: {
            query: {
                /** @description Words of the item's description, matched as the listings' q is: Portuguese stems, accents and case aside ("caneta azul" finds "Caneta esferográfica azul"); websearch syntax ("-", "or", quotes) */
                q: string;
                /** @description The unit of measurement (UN, CX, PCT...), normalized as the prices are: Unidade, UNID and und. are UN */
                unit?: string;
                /** @description Where the prices come from: order (supply orders) or result (results of contratações, PNCP) */
                source?: string;
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description Words of the supplier's name, in order; accents and case do not matter (`maria silva` finds `Maria da Silva`) */
                provider_name?: string;
                /** @description An id of /helpers/bidding-modalities */
                modality_id?: number;
                /** @description From this day on (the main date of the kind) */
                date_from?: string;
                /** @description Up to this day, inclusive */
                date_to?: string;
                /** @description The items' order: by unit price or by the order's date; a leading - sorts descending */
                sort?: "amount" | "-amount" | "date" | "-date";
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description The items' next_cursor: the next page of items, for the same query and sort */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The statistics per unit and a page of items */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["PriceResearch"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listSuppliers: {
        parameters: {
            query?: {
                /** @description Words of the name, in order; accents and case do not matter */
                q?: string;
                /** @description A company's CNPJ, 14 digits */
                document?: string;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description A page's next_cursor: the next suppliers, by name */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of suppliers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["SupplierList"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getSupplier: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The CNPJ: 14 digits, with or without its punctuation (`00.234.050/0001-33` as it is written, its slash included) */
                cnpj: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The company's page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["SupplierPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Registro não encontrado.`: no company has this CNPJ */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: {
                /** @description Words of the name, in order; accents and case do not matter */
                q?: string;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description A page's next_cursor: the next organizations, by name */
                cursor?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of organizations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["OrganizationList"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description The organization's UUID */
                uuid: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The organization's page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["OrganizationPage"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Identificador inválido.`: the id is not a UUID */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Organização não encontrada.` */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    listIndicators: {
        parameters: {
            query?: {
                /** @description An indicator's code (docs/indicators.md) */
                code?: "BR-LIMITE-DISPENSA" | "R011" | "BR-ADITIVO-25" | "R018" | "BR-PRAZO-PROPOSTA" | "R017" | "R050" | "R013" | "R051";
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description The flags that name one record: its kind and id, `contracts/<uuid>` (direct-contracts, public-calls, arps, organizations alike); a detail gives the same flags beside its data */
                record?: string;
                /** @description The flag's year: its record's (a direct contract's date, a contract's start...) */
                year?: number;
                /** @description Page size, 1 to 100 */
                per_page?: number;
                /** @description A page's next_cursor: the next flags */
                cursor?: string;
                /** @description `cardinal`: every matching flag (no pages, at most 50,000) in the output shape of the Open Contracting Partnership's Cardinal (open-contracting/cardinal-rs), without the envelope: OCID, Buyer and Tenderer, each id to {code: decimal}, and Meta with the quartiles and fence of the comparisons between organizations */
                format?: "json" | "cardinal";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page of flags; with format=cardinal, every matching flag in Cardinal's shape */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["FlagPage"];
                    } | components["schemas"]["CardinalOutput"];
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
    summarizeIndicators: {
        parameters: {
            query?: {
                /** @description Only records of this organization */
                organization_uuid?: string;
                /** @description The supplier's CNPJ, 14 digits. A CPF is not accepted: a filter that answers whether a person's CPF has records would reveal the digits that the mask hides. Find a person by provider_name. */
                provider_document?: string;
                /** @description The flags that name one record: its kind and id, `contracts/<uuid>` (direct-contracts, public-calls, arps, organizations alike); a detail gives the same flags beside its data */
                record?: string;
                /** @description The flag's year: its record's (a direct contract's date, a contract's start...) */
                year?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description How many flags each indicator raised */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: true;
                        /** @example Dados recuperados com sucesso */
                        message: string;
                        data: components["schemas"]["FlagSummary"];
                    };
                };
            };
            /** @description Not modified: the If-None-Match header lists the ETag this answer has now (no body) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `Organização não encontrada.`: organization_uuid */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description An unknown or invalid parameter; the message names it and what it accepts */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Muitas requisições deste endereço...`: over PUBLIC_RATE_LIMIT requests a minute from the address (the portal's pages count too). Only this answer carries the limit's headers: the others are public and cacheable. */
            429: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    /** @description Requests allowed a minute */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in the window: 0 */
                    "X-RateLimit-Remaining"?: number;
                    /** @description Seconds until a place frees */
                    "X-RateLimit-Reset"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Erro interno do servidor.`: a failure of the service, logged with the request id */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
            /** @description `Serviço temporariamente indisponível. Tente novamente em alguns instantes.`: the database is unreachable; or `A consulta demorou demais e foi interrompida. Tente novamente em alguns instantes, ou com filtros mais restritos.`: the query ran past QUERY_TIMEOUT. Come back after Retry-After seconds */
            503: {
                headers: {
                    /** @description Seconds to wait */
                    "Retry-After"?: number;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {boolean} */
                        success: false;
                        message: string;
                    };
                };
            };
        };
    };
}
