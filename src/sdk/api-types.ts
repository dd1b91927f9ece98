/**
 * Types of the Supplier Marketplace API, generated from its OpenAPI document by
 * `npm run sdk:generate` (openapi-typescript). Do not edit: CI fails when it drifts.
 */

export interface paths {
    "/.well-known/svc-ledger-signing-key": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The public keys that sign your ledger's entries and checkpoints (no token needed) */
        get: operations["getLedgerSigningKey"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your balance, now or as it stood at any moment */
        get: operations["getBalance"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/cosignatures": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The latest cosignature of each witness of your ledger */
        get: operations["getBalanceCosignatures"];
        put?: never;
        /**
         * A witness's cosignature of one of your ledger's signed heads: kept and published
         * @description A witness (`ledger witness`, or `runWitness` in the client package) cosigns a head once it checked it consistent with every head it accepted before. The head must be the ledger's, yours, and still what the ledger holds; the signature the witness key's. The latest cosignature of each witness is published (GET /balance/cosignatures) and sent with the daily `ledger.checkpoint`.
         */
        post: operations["postBalanceCosignatures"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/entries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your ledger entries, in the order they were posted */
        get: operations["getBalanceEntries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/entries/{entry_id}/proof": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Proof that one of your entries is in your ledger's Merkle tree, against a head signed now
         * @description RFC 9162 inclusion proof of the entry's signed text (`leaf.text`) in the tree the signed head's `root_hash` is the root of. `verifyInclusion` in the client package checks it with the public key alone: the head's signature, the entry's signature, its content's hash and the path.
         */
        get: operations["getBalanceEntriesByEntryIdProof"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/proof": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your ledger's head, signed now, viewed as of now or any earlier moment: keep it to prove later that history was not rewritten
         * @description Verify `checkpoint.signature` with the key at GET /.well-known/svc-ledger-signing-key. The signed text carries the ledger as it stands when signed (`tree`: size, RFC 9162 root, chain head) and the view as of `as_of` (a prefix of it), so a head for a past moment cannot differ from one kept then without showing it. An `as_of` after now is refused (422). A ledger holding an entry it refused (one not signed by the service where it stands) answers 409 `ledger_chain_broken` naming it (`entry_id`), never a head.
         */
        get: operations["getBalanceProof"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/proof/consistency": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Proof that your ledger of `to` entries begins with the one of `from` entries, unchanged
         * @description RFC 9162 consistency proof between two heads you hold (their `tree_size`): `verifyConsistency` in the client package checks it against both signed heads with the public key alone. `to` defaults to the ledger now; a size past it is refused (422).
         */
        get: operations["getBalanceProofConsistency"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/balance/statements/{month}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A monthly statement: opening balance, the entries of the month, closing balance
         * @description Accept: application/json (default), text/csv (decimal amounts like 18.30 with a currency column, gross and commission per sale and refund, an opening and a closing row) or text/html (a printable page, A4 upright or a phone). The month runs from 00:00 UTC on its first day to 00:00 UTC on the next.
         */
        get: operations["getBalanceStatementsByMonth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/errors": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Every problem code with its HTTP status and title */
        get: operations["getErrors"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/fees": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The fee schedule */
        get: operations["getFees"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List your offers */
        get: operations["getOffers"];
        put?: never;
        /**
         * Create an offer (draft) on a sellable product
         * @description One offer per product per supplier. A declared offer's answer carries fulfilment.secret (svcsec_ + 32 lowercase hex) once. Errors: 409 offer_exists; 422 product_not_sellable; 422 validation_failed (fulfilment, declared_stock or declared-only terms on an uploaded offer, an uploaded offer on a top-up product, a declared offer without fulfilment, a base_url the service may not call, an unknown product).
         */
        post: operations["postOffers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One of your offers
         * @description Errors: 404 not_found (also for another supplier's offer).
         */
        get: operations["getOffersByOfferId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * Change an offer
         * @description price, external_ref, low_stock_threshold; for declared offers also delivery_sla_minutes, delivery_time and fulfilment.base_url. Errors: 404 not_found; 422 validation_failed (any other field, or a declared-only field on an uploaded offer).
         */
        patch: operations["patchOffersByOfferId"];
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate an offer
         * @description Uploaded offers activate even with zero stock (unroutable until stock exists). Declared offers pass an inline healthcheck first (GET {base_url}/healthcheck, 5 s). Reactivation restarts health at 70. Errors: 404 not_found; 422 fulfilment_unreachable (the probe result in detail and in probe; nothing changes).
         */
        post: operations["postOffersByOfferIdActivate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/certification": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Go-live certification: run the whole supplier-hosted contract against the offer's fulfilment endpoints (rate-limit class test)
         * @description Declared offers: healthcheck, a wrongly signed request refused, reservation and its replay, POST /orders and its duplicate, the poll cycle to ready, DELETE /orders/{id}/items, out_of_stock, reservation_expired. Top-up offers: healthcheck, a wrongly signed request refused, validate with the sandbox users 100001, 999999, 888888 and 777777, execute and its replay, status polls. 200 means the certification ran; read passed. No order, ledger entry or health outcome is recorded for the offer. In production, activating a declared offer needs a passing certification of its base_url within 30 days. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).
         */
        post: operations["postOffersByOfferIdCertification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/deactivate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Take an offer out of routing (leaves active; offer.deactivated with reason supplier_request)
         * @description An offer that is not active stays as it is. Errors: 404 not_found.
         */
        post: operations["postOffersByOfferIdDeactivate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/fulfilment/check": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Probe the fulfilment healthcheck now (200 means the check ran; read status; rate-limit class test)
         * @description Records last_healthcheck_at and last_healthcheck_ok. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).
         */
        post: operations["postOffersByOfferIdFulfilmentCheck"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/fulfilment/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rotate the fulfilment secret; for 24 hours calls carry a second v1= signature made with the old one
         * @description The answer carries the new fulfilment.secret once. Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer).
         */
        post: operations["postOffersByOfferIdFulfilmentRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/health": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Your offer's health: the rules with their numbers, and what the next failures would do
         * @description The current score; the health table's rules; how many more failed calls or healthchecks (or minutes of unavailability in a cooldown) before the next consequence; and when it recovers if nothing fails. Worked out from the same table the service applies. Errors: 404 not_found (also another supplier's offer).
         */
        get: operations["getOffersByOfferIdHealth"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List an offer's inventory items, their values masked
         * @description Filters: status (delivered is read as sold), batch_id, last4 (the last characters a masked value shows, any case). Errors: 404 not_found; 422 validation_failed (a filter, limit, cursor).
         */
        get: operations["getOffersByOfferIdInventory"];
        put?: never;
        /**
         * Upload keys or files to an uploaded offer
         * @description strict (default): any invalid item rejects the whole batch with 422 inventory_rejected listing every bad item ({index, code, message}), nothing stored. partial: valid items are stored, invalid ones listed in rejected. A key already in the offer's stock (available, reserved, delivered or invalidated), or twice in one batch, is rejected. Item codes: invalid_item, invalid_kind, invalid_value, format_mismatch (a text key that does not fit the product's key_format; the message names it in words), invalid_file_name, unsupported_content_type, invalid_base64, file_too_large, content_mismatch, duplicate_key, duplicate_in_batch. Errors: 404 not_found; 409 stock_mode_mismatch (a declared offer); 413 payload_too_large; 422 inventory_rejected; 422 validation_failed (more than 1,000 items, none, an unknown mode).
         */
        post: operations["postOffersByOfferIdInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/{item_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Take back an available item
         * @description Errors: 404 not_found (no such item in this offer); 409 invalid_state (the item is reserved, delivered or invalidated).
         */
        delete: operations["deleteOffersByOfferIdInventoryByItemId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/{item_id}/reveal": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Show an item's value whole (recorded in the offer's history)
         * @description Every call is recorded in the offer's history (which token, when) before the value is answered; the answer is never stored, so an Idempotency-Key is not kept for it. Errors: 404 not_found; 409 invalid_state (withdrawn: its value is no longer kept).
         */
        post: operations["postOffersByOfferIdInventoryByItemIdReveal"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import a file of keys (text, CSV or TSV) as a job
         * @description A key per line, or the first column of a CSV or TSV: a header row, quotes, a BOM, CRLF, blank lines and surrounding spaces are read as a spreadsheet writes them. At most 100,000 keys per file. Answers 202 with the import, which adds the keys ten thousand at a time: GET it for its progress; `inventory.import_completed` when done. The lines refused are those the preview lists. Errors: 404 not_found; 409 stock_mode_mismatch; 413 payload_too_large; 422 validation_failed.
         */
        post: operations["postOffersByOfferIdInventoryImports"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/imports/{import_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import's progress and result
         * @description Accept: application/json (default), or text/csv for the lines not added with their reasons. Errors: 404 not_found.
         */
        get: operations["getOffersByOfferIdInventoryImportsByImportId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/imports/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a file of keys would add, nothing stored
         * @description A key per line, or the first column of a CSV or TSV: a header row, quotes, a BOM, CRLF, blank lines and surrounding spaces are read as a spreadsheet writes them. At most 100,000 keys per file. Answers how many keys would be added and every line that would not, with its reason. Errors: 404 not_found; 409 stock_mode_mismatch; 413 payload_too_large; 422 validation_failed (more keys than that, no content).
         */
        post: operations["postOffersByOfferIdInventoryImportsPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/inventory/withdrawals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Withdraw items: a selection by id, or a whole batch
         * @description Withdraws the available items (and those under review) among the ones named; their values are no longer kept and the stock figures follow at once. Items in another status (reserved, sold, invalidated, withdrawn already, or not in this offer) are left as they are and listed in skipped. Errors: 404 not_found (the offer, or a batch with no item in it); 409 invalid_state (none of the items can be withdrawn); 422 validation_failed.
         */
        post: operations["postOffersByOfferIdInventoryWithdrawals"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/price": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the price (rate-limit class sync)
         * @description Errors: 404 not_found; 422 validation_failed.
         */
        put: operations["putOffersByOfferIdPrice"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/pricing-rule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The offer’s pricing rule and how many changes it made in the last hour
         * @description Errors: 404 not_found (no such offer of yours, or no rule).
         */
        get: operations["getOffersByOfferIdPricingRule"];
        /**
         * Set the offer’s automatic pricing: beat the lowest competing price, within a floor and a ceiling
         * @description The rule applies at once (the answer's offer price is the rule's), then whenever the product's market changes (offers activated, deactivated, repriced), at most max_changes_per_hour times in any hour; each change is an offer.repriced webhook event. Competitors are the other suppliers' routable offers; with none, `when_alone` says what happens: `keep` (the default) leaves the price where it is (moved into floor and ceiling if outside them), `ceiling` sets the ceiling. While a rule is on, a price set by hand is refused (409 pricing_rule_active). Preview a rule before saving it with POST /pricing/simulate. Errors: 404 not_found; 422 validation_failed (floor above ceiling, both or neither of beat_by.amount and beat_by.percent).
         */
        put: operations["putOffersByOfferIdPricingRule"];
        post?: never;
        /**
         * Stop automatic pricing; the price stays where it is
         * @description Errors: 404 not_found (no such offer of yours, or no rule).
         */
        delete: operations["deleteOffersByOfferIdPricingRule"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/routing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Why your offer won or lost each order of its product
         * @description For each order of the offer's product routed in [from, to) (default: the week before now; at most 92 days), oldest first: whether this offer served it and if not why, from the order's routing receipt. Another offer appears only as a rank and a price gap: never its id, supplier or health. Accept: application/json (default, paginated) or text/csv (the whole period). Errors: 404 not_found (also another supplier's offer); 422 validation_failed (from not before to, a longer period, an unknown cursor).
         */
        get: operations["getOffersByOfferIdRouting"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/offers/{offer_id}/stock": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Declare stock (declared offers; 0 keeps the offer active and unroutable; rate-limit class sync)
         * @description Errors: 404 not_found; 409 stock_mode_mismatch (an uploaded offer); 422 validation_failed.
         */
        put: operations["putOffersByOfferIdStock"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Orders with at least one of your items, newest first */
        get: operations["getOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/orders/{order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One order, scoped to your items */
        get: operations["getOrdersByOrderId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payout-destinations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Where your payouts can go, oldest first, accounts masked */
        get: operations["getPayoutDestinations"];
        put?: never;
        /**
         * Add a bank account (IBAN) or a PayPal address; the first one becomes the default
         * @description At most 10; the same account twice is refused (409).
         */
        post: operations["postPayoutDestinations"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payout-destinations/{destination_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Remove a destination (the default only when it is the last one)
         * @description Payouts already sent to it keep naming it.
         */
        delete: operations["deletePayoutDestinationsByDestinationId"];
        options?: never;
        head?: never;
        /** Make a destination the default */
        patch: operations["patchPayoutDestinationsByDestinationId"];
        trace?: never;
    };
    "/api/v1/payouts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your payouts, newest first */
        get: operations["getPayouts"];
        put?: never;
        /**
         * Pay out part of your available balance
         * @description At least 2000 minor units and never more than available; the amount leaves available at once and comes back if the payout fails or is cancelled. It goes to `destination_id`, else to your default destination (or, with `method`, the newest destination of that method); without any destination it is made by method alone (sepa_bank_transfer unless named). In the sandbox a payout to a destination is in transit 30 s later and paid 30 s after that (payout.paid); to the test IBAN it fails (payout.failed, account_closed).
         */
        post: operations["postPayouts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payouts/{payout_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One payout and the balance entries it posted */
        get: operations["getPayoutsByPayoutId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payouts/{payout_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending payout: its amount returns to available
         * @description Only while pending (409 once in transit, paid or failed); cancelling a cancelled payout is harmless.
         */
        post: operations["postPayoutsByPayoutIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/payouts/schedule": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your payout schedule */
        get: operations["getPayoutsSchedule"];
        /** Set automatic payouts: daily or weekly, above a minimum amount (manual turns them off) */
        put: operations["putPayoutsSchedule"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/pricing/simulate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What a unit sold at this price earns, and where it would rank
         * @description gross, commission and net per the fee schedule; rank (1 = routed first) and would_be_selected by the routing rule against the other suppliers' eligible offers, the caller's own offer taking the simulated price (an inactive one at health 70). With `pricing_rule` (the body of PUT /offers/{offer_id}/pricing-rule), a rule's preview before it is saved: `price` is where the rule starts from (the offer's price now), `pricing_rule` in the answer says what the rule would set now and why, and every other figure is at that price. Nothing is saved. Errors: 404 not_found (product); 422 validation_failed (a rule's floor above its ceiling too).
         */
        post: operations["postPricingSimulate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** List products */
        get: operations["getProducts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{product_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One product, with its form fields */
        get: operations["getProductsByProductId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/products/{product_id}/competition": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The product's competing offers: prices and health bands, the buyer price, and where your offer would stand
         * @description Other suppliers appear only as a price, a health band and routing eligibility: no supplier id, name or offer id. `price` (minor units) asks where your offer would rank at that price; without it, your offer's current price is used. Errors: 404 not_found (product); 422 validation_failed.
         */
        get: operations["getProductsByProductIdCompetition"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/sandbox/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run a test order through the whole pipeline against your own offer (sandbox only)
         * @description Scenarios: paid (default), abandoned (placed, never paid, expires after 15 minutes), refunded (paid, then fully refunded), disputed (paid, then disputed). On declared-stock and top-up offers the order is paid once the supplier delivered; refunded and disputed then apply by themselves.
         */
        post: operations["postSandboxOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The delivery log: one row per attempt, kept 30 days, newest first */
        get: operations["getWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One attempt with its exact signed request body and the first 4 KB of the answer */
        get: operations["getWebhookDeliveriesByDeliveryId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-deliveries/{delivery_id}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Deliver the same event and body again, now (possible for 30 days) */
        post: operations["postWebhookDeliveriesByDeliveryIdResend"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-listen-sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a forwarding session for `listen`: your events while you poll it, signed with its own secret (shown once); no endpoint needed, at most 5 at once */
        post: operations["postWebhookListenSessions"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-listen-sessions/{session_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** End a forwarding session: nothing more is copied to it, and what waits is dropped */
        delete: operations["deleteWebhookListenSessionsBySessionId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhook-listen-sessions/{session_id}/poll": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Acknowledge what the last poll handed over, renew the lease, and take the events waiting (up to 100, oldest first; with none, waits up to wait_seconds for one) */
        post: operations["postWebhookListenSessionsBySessionIdPoll"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Your webhook endpoints */
        get: operations["getWebhooks"];
        put?: never;
        /** Register a webhook endpoint (public HTTPS; at most 10); the secret is shown once */
        post: operations["postWebhooks"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** One webhook endpoint */
        get: operations["getWebhooksByWebhookId"];
        put?: never;
        post?: never;
        /** Delete a webhook endpoint */
        delete: operations["deleteWebhooksByWebhookId"];
        options?: never;
        head?: never;
        /** Change url, events, description, rate_limit or status (status active re-enables after a passing test-fire) */
        patch: operations["patchWebhooksByWebhookId"];
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/recover": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-send every event the endpoint subscribes to since a moment (at most 14 days back), in order, as new deliveries marked recovered
         * @description The deliveries are made in the background, one after another in event order and within the endpoint's rate_limit; each is a new delivery (same envelope id, the dedupe key) with recovered: true in the delivery log, and a failed one takes the retry ladder. Errors: 404 not_found; 409 invalid_state (the endpoint is disabled: re-enable it first); 422 validation_failed (since more than 14 days back or in the future).
         */
        post: operations["postWebhooksByWebhookIdRecover"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/rotate-secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A new secret, shown once; for 24 hours the old one also signs (a second v1= entry) */
        post: operations["postWebhooksByWebhookIdRotateSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{webhook_id}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Send a signed canned fixture of a real event type (test_fire: true) now */
        post: operations["postWebhooksByWebhookIdTest"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/whoami": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The supplier behind the token, and the environment */
        get: operations["getWhoami"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/inventory/{item_id}/hold": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Hold an available item from sale, under review (the supplier sees under_review)
         * @description An item in any other status is left as it is. Errors: 404 not_found.
         */
        post: operations["postOperatorInventoryByItemIdHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/inventory/{item_id}/invalidate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Invalidate one inventory item (stock.invalidated); an available item leaves stock */
        post: operations["postOperatorInventoryByItemIdInvalidate"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/inventory/{item_id}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End an item's review: back for sale, its key this item's from now on
         * @description An item not under review is left as it is. Errors: 404 not_found.
         */
        post: operations["postOperatorInventoryByItemIdRelease"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/key-collisions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Keys held by two suppliers: the item held at upload, and the other
         * @description open=true (default): only collisions whose held item is still under review. Resolve one with POST /inventory/{item_id}/release (the rightful item, back for sale) and POST /inventory/{item_id}/invalidate (the other). Errors: 422 validation_failed.
         */
        get: operations["getOperatorKeyCollisions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Checkout: route each line, reserve stock for 15 minutes (order.created) */
        post: operations["postOperatorOrders"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders/{order_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The whole order */
        get: operations["getOperatorOrdersByOrderId"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders/{order_id}/deliverables": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The buyer's keys and files, in clear (the only place they are handed over) */
        get: operations["getOperatorOrdersByOrderIdDeliverables"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders/{order_id}/dispute": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Open a dispute on some or all items (order.disputed; informational) */
        post: operations["postOperatorOrdersByOrderIdDispute"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders/{order_id}/pay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Authorize payment; provisioning and capture follow (uploaded stock completes before the answer) */
        post: operations["postOperatorOrdersByOrderIdPay"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/orders/{order_id}/refund": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Refund some or all items (order.refunded; reversing ledger entries) */
        post: operations["postOperatorOrdersByOrderIdRefund"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/payouts/{payout_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancel a pending payout: its amount returns to available */
        post: operations["postOperatorPayoutsByPayoutIdCancel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/payouts/{payout_id}/failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payout failed: its amount returns to available (payout.failed) */
        post: operations["postOperatorPayoutsByPayoutIdFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/payouts/{payout_id}/in_transit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The payout left for the bank (pending -> in_transit) */
        post: operations["postOperatorPayoutsByPayoutIdInTransit"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/payouts/{payout_id}/paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** The bank confirmed the payout (in_transit -> paid; payout.paid) */
        post: operations["postOperatorPayoutsByPayoutIdPaid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/products": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Create a product */
        post: operations["postOperatorProducts"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/products/{product_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /** Change a product (any of its fields) */
        patch: operations["patchOperatorProductsByProductId"];
        trace?: never;
    };
    "/operator/v1/suppliers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Register a supplier; its first token is shown once */
        post: operations["postOperatorSuppliers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/suppliers/{supplier_id}/rate-limits": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A supplier's effective rate limits (requests per minute by class) */
        get: operations["getOperatorSuppliersBySupplierIdRateLimits"];
        /** Raise (or lower) a supplier's rate limits; classes not named keep their value */
        put: operations["putOperatorSuppliersBySupplierIdRateLimits"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/suppliers/{supplier_id}/tokens": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Issue another token for a supplier (shown once) */
        post: operations["postOperatorSuppliersBySupplierIdTokens"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/operator/v1/suppliers/{supplier_id}/tokens/{token_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /** Revoke a token: it answers 401 from then on */
        delete: operations["deleteOperatorSuppliersBySupplierIdTokensByTokenId"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "inventory.import_completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** inventory.import_completed (see docs/webhooks.md) */
        post: operations["webhookInventoryImportCompleted"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "ledger.checkpoint": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** ledger.checkpoint (see docs/webhooks.md): only to endpoints that name it */
        post: operations["webhookLedgerCheckpoint"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "offer.deactivated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** offer.deactivated (see docs/webhooks.md) */
        post: operations["webhookOfferDeactivated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "offer.health_warning": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** offer.health_warning (see docs/webhooks.md) */
        post: operations["webhookOfferHealthWarning"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "offer.repriced": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** offer.repriced (see docs/webhooks.md) */
        post: operations["webhookOfferRepriced"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "offer.stock_low": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** offer.stock_low (see docs/webhooks.md) */
        post: operations["webhookOfferStockLow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.created (see docs/webhooks.md) */
        post: operations["webhookOrderCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.disputed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.disputed (see docs/webhooks.md) */
        post: operations["webhookOrderDisputed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.expired": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.expired (see docs/webhooks.md) */
        post: operations["webhookOrderExpired"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.paid (see docs/webhooks.md) */
        post: operations["webhookOrderPaid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "order.refunded": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** order.refunded (see docs/webhooks.md) */
        post: operations["webhookOrderRefunded"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.created": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** payout.created (see docs/webhooks.md) */
        post: operations["webhookPayoutCreated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** payout.failed (see docs/webhooks.md) */
        post: operations["webhookPayoutFailed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "payout.paid": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** payout.paid (see docs/webhooks.md) */
        post: operations["webhookPayoutPaid"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "stock.invalidated": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** stock.invalidated (see docs/webhooks.md) */
        post: operations["webhookStockInvalidated"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.disabled": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** webhook.disabled (see docs/webhooks.md) */
        post: operations["webhookWebhookDisabled"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Balance: {
            available: components["schemas"]["Money"];
            /** @constant */
            currency: "EUR";
            pending: components["schemas"]["Money"];
            updated_at: string | null;
        };
        BalanceEntry: {
            /** @enum {string} */
            account: "pending" | "available";
            /** @description signed: what this entry adds to the account */
            amount: components["schemas"]["Money"];
            /** @description sale entries: when the amount moves to available */
            available_at: string | null;
            /** @description ISO 8601 UTC */
            created_at: string;
            id: string;
            /** @description sale, settlement and refund entries */
            order_id: string | null;
            order_item_id: string | null;
            /** @description payout and payout_reversal entries */
            payout_id: string | null;
            /**
             * @description payout: available money leaves into a payout; payout_reversal: a failed or cancelled payout gives it back
             * @enum {string}
             */
            type: "sale" | "settlement" | "refund" | "payout" | "payout_reversal";
        };
        BalanceProof: {
            /**
             * @description head = sha256(previous head + canonical JSON of the entry), from 64 zeros
             * @constant
             */
            algorithm: "sha256";
            /** @description the moment viewed: the head, entries and root_hash beside it are the ledger as of then */
            as_of: string;
            checkpoint: components["schemas"]["LedgerCheckpoint"];
            /** @description how many ledger entries the head covers */
            entries: number;
            /** @description hex; 64 zeros before the first entry */
            head: string;
            last_entry_at: string | null;
            last_entry_id: string | null;
            /** @description RFC 9162 Merkle root over those entries, hex */
            root_hash: string;
            /** @description when the service signed: `tree` is the ledger then */
            signed_at: string;
            supplier_id: string;
            tree: components["schemas"]["LedgerTree"];
        };
        BalanceStatement: {
            /** @description the ledger's signed head over every entry up to the month's end (as of the latest of them) */
            checkpoint: components["schemas"]["LedgerCheckpoint"];
            closing: {
                available: components["schemas"]["Money"];
                pending: components["schemas"]["Money"];
            };
            /** @constant */
            currency: "EUR";
            entries: {
                /** @enum {string} */
                account: "pending" | "available";
                /** @description signed: what this entry adds to the account */
                amount: components["schemas"]["Money"];
                available_after: components["schemas"]["Money"];
                /** @description sale entries: when the amount moves to available */
                available_at: string | null;
                /** @description on a sale or a refund: the commission taken (a refund negative) */
                commission: components["schemas"]["Money"] | null;
                /** @description ISO 8601 UTC */
                created_at: string;
                /** @description on a sale or a refund: the price the net came from (a refund negative) */
                gross: components["schemas"]["Money"] | null;
                id: string;
                /** @description sale, settlement and refund entries */
                order_id: string | null;
                order_item_id: string | null;
                /** @description payout and payout_reversal entries */
                payout_id: string | null;
                pending_after: components["schemas"]["Money"];
                /**
                 * @description payout: available money leaves into a payout; payout_reversal: a failed or cancelled payout gives it back
                 * @enum {string}
                 */
                type: "sale" | "settlement" | "refund" | "payout" | "payout_reversal";
            }[];
            /** @description ISO 8601 UTC */
            from: string;
            month: string;
            opening: {
                available: components["schemas"]["Money"];
                pending: components["schemas"]["Money"];
            };
            supplier_id: string;
            supplier_name: string;
            /** @description exclusive */
            to: string;
        };
        CertificationReport: {
            base_url: string;
            checks: {
                /** @description why it failed or was skipped */
                detail: string | null;
                exchanges: {
                    /** @description the JSON body sent (null for none); headers and signatures are never reported */
                    body: unknown;
                    /** @description timeout, connection, target or malformed */
                    failure: {
                        detail: string;
                        reason: string;
                    } | null;
                    latency_ms: number;
                    /** @enum {string} */
                    method: "GET" | "POST" | "DELETE";
                    /** @description appended to the offer’s fulfilment.base_url */
                    path: string;
                    /** @description null when no usable answer came */
                    response: {
                        body: unknown;
                        status: number;
                    } | null;
                    /** @description ISO 8601 UTC */
                    sent_at: string;
                    /**
                     * @description wrong_secret: the deliberately wrong signature of the signature check
                     * @enum {string}
                     */
                    signed_with: "offer_secret" | "wrong_secret";
                    /** @description the spec's per-call timeout for this call */
                    timeout_ms: number;
                    within_timeout: boolean;
                }[];
                /** @description what the contract requires */
                expected: string;
                name: string;
                /**
                 * @description skipped: a check it depends on did not pass
                 * @enum {string}
                 */
                outcome: "pass" | "fail" | "skipped";
                passed: boolean;
            }[];
            /** @description ISO 8601 UTC */
            finished_at: string;
            id: string;
            /** @enum {string} */
            kind: "declared" | "topup";
            offer_id: string;
            /** @description every check passed */
            passed: boolean;
            /** @description ISO 8601 UTC */
            started_at: string;
            summary: {
                failed: number;
                passed: number;
                skipped: number;
            };
        };
        Competition: {
            /** @description active offers that routing may choose now */
            active_offers: number;
            /** @description the price the buyer pays now: the first offer in routing order */
            buyer_price: components["schemas"]["Money"] | null;
            /** @description every active offer, eligible ones in routing order first; no supplier or offer identity */
            offers: {
                /** @enum {string} */
                health_band: "excellent" | "good" | "poor";
                price: components["schemas"]["Money"];
                /** @description place in the routing order (1 = routed first); null when not eligible */
                rank: number | null;
                /** @description health, cooldown and stock allow routing now */
                routing_eligible: boolean;
                /** @description the caller’s own offer */
                yours: boolean;
            }[];
            /** @description where your offer would stand at `price` (or at its current price); null without either */
            position: {
                lowest_competing_price: components["schemas"]["Money"] | null;
                price: components["schemas"]["Money"];
                rank: number;
                would_be_selected: boolean;
            } | null;
            product_id: string;
        };
        FeeSchedule: {
            commission: {
                applies: string;
                min_fee: components["schemas"]["Money"];
                rate_bps: number;
            };
            /** @constant */
            currency: "EUR";
            docs_url: string;
            effective_from: string;
            listing_fee: null;
            payment_fees_charged_to_buyer: boolean;
            payment_fees_charged_to_supplier: boolean;
            payout: {
                fee: null;
                methods: string[];
                minimum: components["schemas"]["Money"];
            };
            price_change_fee: null;
            settlement: {
                holding_period_days: number;
                trigger: string;
            };
            unfulfilled_sale_fee: null;
            version: string;
        };
        FormField: {
            /** @default null */
            help_text: string | null;
            key: string;
            label: string;
            /** @default null */
            max_length: number | null;
            /** @default null */
            options: {
                label: string;
                value: string;
            }[] | null;
            /** @default null */
            pattern: string | null;
            required: boolean;
            /** @enum {string} */
            type: "text" | "number" | "select";
        };
        FormFieldInput: {
            /** @default null */
            help_text: string | null;
            key: string;
            label: string;
            /** @default null */
            max_length: number | null;
            /** @default null */
            options: {
                label: string;
                value: string;
            }[] | null;
            /** @default null */
            pattern: string | null;
            required: boolean;
            /** @enum {string} */
            type: "text" | "number" | "select";
        };
        HealthForecast: {
            cooldown_until: string | null;
            /** @description null when no failure can count against the offer (uploaded keys, not active) */
            next_consequence: {
                /** @enum {string} */
                consequence: "leaves_routing" | "cooldown" | "deactivation";
                /** @description more failed reservation or order calls that bring it about */
                failed_calls: number | null;
                /** @description more failed scheduled healthchecks that bring it about */
                failed_healthchecks: number | null;
                message: string;
                /** @description for deactivation: minutes of continued unavailability */
                minutes: number | null;
            } | null;
            /** @description one more failure brings the next consequence */
            one_step_away: boolean;
            /** @description when it is routable again if nothing fails; null when nothing is to recover */
            recovery: {
                at: string | null;
                message: string;
            } | null;
            routing_eligible: boolean;
            /** @description the health table this service applies, with its numbers */
            rules: {
                cooldown_at_once_for: string[];
                cooldown_at_or_below: number;
                cooldown_minutes: number;
                deactivation_after_cooldown_hours: number;
                healthcheck_every_minutes: number;
                healthcheck_in_cooldown_every_minutes: number;
                /** @description health points per signal */
                points: {
                    [key: string]: number;
                };
                routing_minimum: number;
                score_after_cooldown: number;
                score_after_reactivation: number;
                start: number;
            };
            score: number;
        };
        /** @description A file of keys being added, ten thousand at a time */
        InventoryImport: {
            added: number;
            /** @description the batch of the import's items (GET …/inventory?batch_id=) */
            batch_id: string;
            completed_at: string | null;
            /** @description keys recorded so far */
            done: number;
            file_name: string;
            id: string;
            /** @description keys to add: the lines not refused when the file was read */
            keys: number;
            lines: number;
            offer_id: string;
            /** @description lines not added; their list: this resource as text/csv */
            refused: number;
            /** @description at the pace so far; null once completed or before a chunk */
            seconds_left: number | null;
            /** @description ISO 8601 UTC */
            started_at: string;
            /** @enum {string} */
            status: "running" | "completed";
        };
        /** @description What a file would add, nothing stored */
        InventoryImportPreview: {
            file_name: string;
            keys: number;
            lines: number;
            refused: {
                line: number;
                /** @enum {string} */
                reason: "empty" | "duplicate_in_file" | "already_in_stock" | "too_long" | "looks_like_header" | "not_text" | "unreadable" | "format_mismatch";
                /** @description the line masked as a key is: a refused line may be a real key */
                shown: string;
                /** @description the reason in words */
                words: string;
            }[];
        };
        /** @description An uploaded key or file, its value masked; Reveal shows it whole */
        InventoryItem: {
            /** @description the upload or import the item came in */
            batch_id: string;
            content_type: string | null;
            /** @description when it was uploaded */
            created_at: string;
            file_name: string | null;
            id: string;
            /** @enum {string} */
            kind: "text" | "file";
            /** @description a text key's first 2 and last 4 characters at most (fewer for a short key); null for a file, or a key uploaded before masks were kept */
            masked_value: string | null;
            /** @description the order holding a reserved item, or that received a sold one */
            order_id: string | null;
            /** @description a file's size in bytes */
            size: number | null;
            /**
             * @description under_review: held from sale while the operator looks at it; withdrawn: taken back by you, its value no longer kept
             * @enum {string}
             */
            status: "available" | "reserved" | "sold" | "withdrawn" | "invalidated" | "under_review";
            /** @description ISO 8601 UTC */
            updated_at: string;
        };
        KeyCollision: {
            /** @description ISO 8601 UTC */
            detected_at: string;
            /** @description the item stored under review at upload */
            held: {
                item_id: string;
                offer_id: string;
                status: string;
                supplier_id: string;
            };
            /** @description the held item: the one uploaded second */
            id: string;
            /** @description the other supplier's item holding the same key (status unknown: not recorded) */
            other: {
                item_id: string;
                offer_id: string;
                status: string;
                supplier_id: string;
            };
        };
        /** @description The shape of the product's keys; an uploaded key that does not fit is refused */
        KeyFormat: {
            /** @description the format in words, as a refused line names it: "5 groups of 5 letters or digits, joined by dashes" */
            description: string;
            max_length: number;
            min_length: number;
            /** @description a regular expression a key matches whole (anchored); JavaScript syntax, with the u flag */
            pattern: string;
        };
        /** @description The shape of the product's keys; an uploaded key that does not fit is refused */
        KeyFormatInput: {
            /** @description the format in words, as a refused line names it: "5 groups of 5 letters or digits, joined by dashes" */
            description: string;
            max_length: number;
            min_length: number;
            /** @description a regular expression a key matches whole (anchored); JavaScript syntax, with the u flag */
            pattern: string;
        };
        /** @description the ledger's head signed by the service: keep it to prove later that the history it covers was not rewritten (verifyConsistency in the client package) */
        LedgerCheckpoint: {
            /** @constant */
            algorithm: "ed25519";
            /** @description the signing key: GET /.well-known/svc-ledger-signing-key */
            key_id: string;
            /** @description Ed25519 over the UTF-8 bytes of `signed`, hex (64 bytes) */
            signature: string;
            /** @description the exact signed text (svc-ledger-checkpoint/2): canonical JSON (keys sorted, no whitespace) of {as_of, as_of_head, as_of_last_entry_id, as_of_root_hash, as_of_tree_size, format, head, key_id, last_entry_id, root_hash, signed_at, supplier_id, tree_size}: the ledger when signed (tree_size entries, their RFC 9162 root_hash, the hash chain head) and the first as_of_tree_size of them, posted by as_of */
            signed: string;
        };
        /** @description the ledger's head signed by the service: keep it to prove later that the history it covers was not rewritten (verifyConsistency in the client package) */
        LedgerCheckpointInput: {
            /** @constant */
            algorithm: "ed25519";
            /** @description the signing key: GET /.well-known/svc-ledger-signing-key */
            key_id: string;
            /** @description Ed25519 over the UTF-8 bytes of `signed`, hex (64 bytes) */
            signature: string;
            /** @description the exact signed text (svc-ledger-checkpoint/2): canonical JSON (keys sorted, no whitespace) of {as_of, as_of_head, as_of_last_entry_id, as_of_root_hash, as_of_tree_size, format, head, key_id, last_entry_id, root_hash, signed_at, supplier_id, tree_size}: the ledger when signed (tree_size entries, their RFC 9162 root_hash, the hash chain head) and the first as_of_tree_size of them, posted by as_of */
            signed: string;
        };
        LedgerConsistencyProof: {
            /** @description the head signed now */
            checkpoint: components["schemas"]["LedgerCheckpoint"];
            from: number;
            /** @description RFC 9162 consistency proof between the trees of `from` and `to` entries, hex */
            proof: string[];
            to: number;
        };
        LedgerCosignature: {
            /** @description the service's signed head the witness cosigns, as it was handed out */
            checkpoint: components["schemas"]["LedgerCheckpoint"];
            /**
             * Format: date-time
             * @description when the witness cosigned, as toISOString writes it (its own clock)
             */
            cosigned_at: string;
            /** @description Ed25519 by witness_key over "svc-ledger-cosignature/1\n" + cosigned_at + "\n" + checkpoint.signed, hex */
            signature: string;
            /** @description the witness's raw 32-byte Ed25519 public key, hex */
            witness_key: string;
            /** @description the first 8 bytes of sha256 over witness_key, hex */
            witness_key_id: string;
        };
        LedgerCosignatureInput: {
            /** @description the service's signed head the witness cosigns, as it was handed out */
            checkpoint: components["schemas"]["LedgerCheckpointInput"];
            /**
             * Format: date-time
             * @description when the witness cosigned, as toISOString writes it (its own clock)
             */
            cosigned_at: string;
            /** @description Ed25519 by witness_key over "svc-ledger-cosignature/1\n" + cosigned_at + "\n" + checkpoint.signed, hex */
            signature: string;
            /** @description the witness's raw 32-byte Ed25519 public key, hex */
            witness_key: string;
            /** @description the first 8 bytes of sha256 over witness_key, hex */
            witness_key_id: string;
        };
        LedgerInclusionProof: {
            /** @description RFC 9162 inclusion path, leaf side first, hex */
            audit_path: string[];
            /** @description the head signed now, whose root the path leads to */
            checkpoint: components["schemas"]["LedgerCheckpoint"];
            /** @description the ledger's entry (a balance entry's id without its account) */
            entry_id: string;
            leaf: components["schemas"]["LedgerLeaf"];
            leaf_index: number;
            tree_size: number;
        };
        LedgerLeaf: {
            /** @description what the entry's hash covers: hash = sha256(prev + content) */
            content: string;
            key_id: string;
            /** @description Ed25519 over the UTF-8 bytes of `text`, hex */
            signature: string;
            /** @description the entry's signed text, its leaf in the tree: canonical JSON of {format, hash, key_id, prev, seq, supplier_id} */
            text: string;
        };
        LedgerPublicKey: {
            /** @description the first 8 bytes of sha256 over the raw public key, hex */
            key_id: string;
            /** @description the raw 32-byte Ed25519 public key, hex */
            public_key: string;
            /** @description the same key as SPKI PEM */
            public_key_pem: string;
            /**
             * @description `current` signs what is written now; a `retired` key signed entries and checkpoints before a rotation
             * @enum {string}
             */
            status: "current" | "retired";
        };
        LedgerSigningKey: {
            /** @constant */
            algorithm: "ed25519";
            /**
             * @description a checkpoint's `signed` text is canonical JSON (keys sorted, no whitespace) of {as_of, entries, format, head, key_id, last_entry_id, supplier_id}; `signature` is Ed25519 over its UTF-8 bytes, hex
             * @constant
             */
            checkpoint_format: "svc-ledger-checkpoint/2";
            /**
             * @description each ledger entry is signed over canonical JSON of {format, hash, key_id, prev, seq, supplier_id}: hash = sha256(prev + canonical JSON of the entry's content), seq its place, prev the head before it
             * @constant
             */
            entry_format: "svc-ledger-entry/1";
            /** @description the current key: the first 8 bytes of sha256 over the raw public key, hex */
            key_id: string;
            /** @description every key that signs or ever signed the ledger, the current one first: an entry or checkpoint names its key by key_id */
            keys: components["schemas"]["LedgerPublicKey"][];
            /** @description the current raw 32-byte Ed25519 public key, hex */
            public_key: string;
            /** @description the same key as SPKI PEM */
            public_key_pem: string;
        };
        LedgerTree: {
            /** @description the hash chain head after them */
            head: string;
            last_entry_at: string | null;
            last_entry_id: string | null;
            /** @description RFC 9162 Merkle root over their signed texts, hex */
            root_hash: string;
            /** @description the entries of the ledger when the head was signed */
            size: number;
        };
        Money: {
            /** @description minor units */
            amount: number;
            /** @constant */
            currency: "EUR";
        };
        NewPayoutDestinationInput: {
            holder_name: string;
            /** @description spaces allowed; check digits verified. Sandbox: DE62370400440532013001 fails (account_closed) */
            iban: string;
            /** @constant */
            method: "sepa_bank_transfer";
        } | {
            email: string;
            /** @constant */
            method: "paypal";
        };
        Offer: {
            /** @description ISO 8601 UTC */
            created_at: string;
            delivery_sla_minutes: number;
            delivery_time: string;
            external_ref: string;
            /** @description declared offers only */
            fulfilment: {
                base_url: string;
                last_healthcheck_at: string | null;
                last_healthcheck_ok: boolean | null;
                /** @description svcsec_…; only in the creation and rotation answers */
                secret?: string;
                secret_set: boolean;
            } | null;
            health: {
                cooldown_until: string | null;
                routing_eligible: boolean;
                score: number;
            };
            id: string;
            low_stock_threshold: number;
            price: components["schemas"]["Money"];
            product_id: string;
            /** @enum {string} */
            status: "draft" | "active" | "inactive";
            stock: {
                available: number | null;
                declared: number | null;
                delivered: number;
                /** @enum {string} */
                mode: "uploaded" | "declared";
                reserved: number | null;
            };
            /** @enum {string} */
            stock_mode: "uploaded" | "declared";
            /** @description ISO 8601 UTC */
            updated_at: string;
        };
        OperatorPayout: {
            amount: components["schemas"]["Money"];
            /** @description the entries the payout posted on your balance, in order */
            balance_entries: components["schemas"]["BalanceEntry"][];
            cancelled_at: string | null;
            /** @description ISO 8601 UTC */
            created_at: string;
            /** @description where it was sent; null for a payout made by method alone */
            destination: {
                /** @description masked: IBAN country and last four, or PayPal address */
                account: string;
                id: string;
            } | null;
            failed_at: string | null;
            failure_code: string | null;
            id: string;
            in_transit_at: string | null;
            /** @enum {string} */
            method: "sepa_bank_transfer" | "paypal";
            paid_at: string | null;
            /** @enum {string} */
            status: "pending" | "in_transit" | "paid" | "failed" | "cancelled";
            supplier_id: string;
            /**
             * @description manual: POST /payouts; daily, weekly: the payout schedule
             * @enum {string}
             */
            trigger: "manual" | "daily" | "weekly";
        };
        /** @description Supplier-scoped: only your items, totals over them */
        Order: {
            buyer_country: string;
            completed_at: string | null;
            /** @description ISO 8601 UTC */
            created_at: string;
            /** @constant */
            currency: "EUR";
            /** @description ISO 8601 UTC */
            expires_at: string;
            id: string;
            items: components["schemas"]["OrderItem"][];
            /** @description SVC-<order_id> */
            number: string;
            paid_at: string | null;
            /** @enum {string} */
            status: "placed" | "paid" | "completed" | "expired" | "refunded" | "partially_refunded" | "cancelled";
            totals: {
                commission: components["schemas"]["Money"];
                gross: components["schemas"]["Money"];
                net: components["schemas"]["Money"];
            };
        };
        OrderItem: {
            commission: components["schemas"]["Money"];
            delivered_at: string | null;
            /** @description when the buyer first disputed this item (order.disputed); a dispute alone changes no status or money */
            disputed_at: string | null;
            external_ref: string;
            fulfilment: {
                /** @description top-up only: the account the supplier validated */
                account_label?: string;
                inventory_item_ids: string[];
                /** @description top-up only */
                operation_id?: string;
                /** @description top-up only, once executed */
                receipt_ref?: string | null;
                reservation_id: string | null;
                /** @enum {string} */
                source: "uploaded" | "declared" | "topup";
            };
            gross: components["schemas"]["Money"];
            id: string;
            net: components["schemas"]["Money"];
            offer_id: string;
            product_id: string;
            quantity: number;
            /** @enum {string} */
            status: "reserved" | "delivered" | "released" | "refunded" | "cancelled";
            unit_price: components["schemas"]["Money"];
        };
        Payout: {
            amount: components["schemas"]["Money"];
            cancelled_at: string | null;
            /** @description ISO 8601 UTC */
            created_at: string;
            /** @description where it was sent; null for a payout made by method alone */
            destination: {
                /** @description masked: IBAN country and last four, or PayPal address */
                account: string;
                id: string;
            } | null;
            failed_at: string | null;
            failure_code: string | null;
            id: string;
            in_transit_at: string | null;
            /** @enum {string} */
            method: "sepa_bank_transfer" | "paypal";
            paid_at: string | null;
            /** @enum {string} */
            status: "pending" | "in_transit" | "paid" | "failed" | "cancelled";
            /**
             * @description manual: POST /payouts; daily, weekly: the payout schedule
             * @enum {string}
             */
            trigger: "manual" | "daily" | "weekly";
        };
        PayoutDestination: {
            /** @description masked: the IBAN country and its last four characters, or the PayPal address */
            account: string;
            /** @description ISO 8601 UTC */
            created_at: string;
            /** @description where payouts go when a request names no destination */
            default: boolean;
            /** @description bank accounts only */
            holder_name: string | null;
            id: string;
            /** @enum {string} */
            method: "sepa_bank_transfer" | "paypal";
        };
        PayoutSchedule: {
            /** @description how long a sale's proceeds stay pending after delivery (7 days; 10 minutes in the sandbox) */
            holding_period_seconds: number;
            /**
             * @description daily: 00:00 UTC; weekly: Mondays 00:00 UTC; manual: none
             * @enum {string}
             */
            interval: "manual" | "daily" | "weekly";
            /** @enum {string} */
            method: "sepa_bank_transfer" | "paypal";
            /** @description a run pays out the whole available balance when it is at least this (and the fee schedule minimum) */
            minimum_amount: components["schemas"]["Money"];
            /** @description the schedule's next run (null: manual) */
            next_payout_at: string | null;
            /** @description the fee schedule's minimum of any payout */
            payout_minimum: components["schemas"]["Money"];
            updated_at: string | null;
        };
        PayoutWithEntries: {
            amount: components["schemas"]["Money"];
            /** @description the entries the payout posted on your balance, in order */
            balance_entries: components["schemas"]["BalanceEntry"][];
            cancelled_at: string | null;
            /** @description ISO 8601 UTC */
            created_at: string;
            /** @description where it was sent; null for a payout made by method alone */
            destination: {
                /** @description masked: IBAN country and last four, or PayPal address */
                account: string;
                id: string;
            } | null;
            failed_at: string | null;
            failure_code: string | null;
            id: string;
            in_transit_at: string | null;
            /** @enum {string} */
            method: "sepa_bank_transfer" | "paypal";
            paid_at: string | null;
            /** @enum {string} */
            status: "pending" | "in_transit" | "paid" | "failed" | "cancelled";
            /**
             * @description manual: POST /payouts; daily, weekly: the payout schedule
             * @enum {string}
             */
            trigger: "manual" | "daily" | "weekly";
        };
        PricingRule: {
            beat_by: {
                /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                amount: number;
            } | {
                /** @description up to two decimals */
                percent: number;
            };
            ceiling: components["schemas"]["Money"];
            changes_in_last_hour: number;
            floor: components["schemas"]["Money"];
            last_repriced_at: string | null;
            max_changes_per_hour: number;
            offer_id: string;
            /** @description ISO 8601 UTC */
            updated_at: string;
            /** @enum {string} */
            when_alone: "keep" | "ceiling";
        };
        /** @description application/problem+json */
        Problem: {
            /** @enum {string} */
            code: "malformed_json" | "bad_request" | "unauthorized" | "not_found" | "offer_exists" | "stock_mode_mismatch" | "invalid_state" | "idempotency_key_in_use" | "supplier_exists" | "product_exists" | "out_of_stock" | "insufficient_available_balance" | "certification_required" | "pricing_rule_active" | "ledger_chain_broken" | "request_timeout" | "payload_too_large" | "unsupported_media_type" | "validation_failed" | "topup_invalid" | "idempotency_key_reused" | "product_not_sellable" | "inventory_rejected" | "fulfilment_unreachable" | "payout_below_minimum" | "rate_limited" | "headers_too_large" | "internal_error" | "service_unavailable";
            detail: string;
            errors?: {
                field: string;
                message: string;
            }[];
            status: number;
            title: string;
            trace_id: string;
            /** @description <errors_url>#<code> */
            type: string;
        } & {
            [key: string]: unknown;
        };
        Product: {
            form_fields: components["schemas"]["FormField"][];
            id: string;
            key_format: components["schemas"]["KeyFormat"] | null;
            market: {
                active_offers: number;
                /** @description the price a buyer pays now; null while no offer is routable */
                buyer_price: components["schemas"]["Money"] | null;
                your_offer_selected: boolean;
            };
            name: string;
            platform: string;
            region: string;
            /** @enum {string} */
            status: "sellable" | "not_sellable";
            /** @enum {string} */
            type: "game_key" | "topup";
        };
        RoutingEntry: {
            /** @description how far above the winning price; null when not ranked */
            above_winner: components["schemas"]["Money"] | null;
            /** @description the reason in words, e.g. "a lower price: you were 2nd of 4, 0.30 € above" */
            explanation: string;
            order_id: string;
            /** @description units the order asked of the product */
            quantity: number;
            quantity_won: number;
            /** @description its place in the routing order (1 = tried first); null when routing could not consider it */
            rank: number | null;
            /** @description how many offers routing could consider */
            ranked: number;
            /**
             * @description why it won or lost, as a code
             * @enum {string}
             */
            reason: "won" | "lower_price" | "higher_health" | "earlier_activation" | "health_below_minimum" | "in_cooldown" | "no_stock_declared" | "no_keys" | "not_active" | "supplier_declined" | "not_needed";
            /** @description ISO 8601 UTC */
            routed_at: string;
            /** @description this offer served the order (all of it or a share) */
            won: boolean;
            /** @description this offer’s price when the order was routed; null when it was not active */
            your_price: components["schemas"]["Money"] | null;
        };
        WebhookDeliveryAttempt: {
            attempt: number;
            /** @description ISO 8601 UTC */
            created_at: string;
            delivery_id: string;
            duration_ms: number;
            error: string | null;
            event_id: string;
            event_type: string;
            /** @description the attempt id */
            id: string;
            /**
             * @description succeeded (2xx); http_error (another status, in response_status); connection_refused (nothing listens at the address); connection_failed; timeout; target_refused (an address the service may not call)
             * @enum {string}
             */
            outcome: "succeeded" | "http_error" | "connection_refused" | "connection_failed" | "timeout" | "target_refused";
            /** @description sent by POST /webhooks/{webhook_id}/recover */
            recovered: boolean;
            /** @description null when no HTTP answer came (outcome says why) */
            response_status: number | null;
            succeeded: boolean;
            test_fire: boolean;
            webhook_id: string;
            /** @description the endpoint's URL (as it is now) */
            webhook_url: string | null;
        };
        WebhookEndpoint: {
            consecutive_failures: number;
            /** @description ISO 8601 UTC */
            created_at: string;
            description: string;
            disabled_at: string | null;
            events: string[];
            id: string;
            /** @description deliveries per second; null: no limit */
            rate_limit: number | null;
            /** @description whsec_…; only in the creation and rotation answers */
            secret?: string;
            /** @enum {string} */
            status: "active" | "disabled";
            url: string;
        };
        WebhookListenEvent: {
            /** @description the envelope, exactly the signed bytes */
            body: string;
            /** @description ISO 8601 UTC */
            created_at: string;
            event_id: string;
            event_type: string;
            /** @description a webhook delivery's headers, signed now with the session's secret: forward them as they are */
            headers: {
                [key: string]: string;
            };
            /** @description the event's copy for this session; acknowledge it by this id */
            id: string;
        };
        WebhookListenSession: {
            /** @description ISO 8601 UTC */
            created_at: string;
            events: string[];
            id: string;
            /** @description the session ends unless polled before then; each poll moves it 60 s on */
            lease_until: string;
            /** @description whsec_…; only in the opening answer: the forwarded events' signing secret */
            secret?: string;
        };
        WebhookRecovery: {
            /** @description the recovery; its deliveries carry recovered: true in the delivery log */
            id: string;
            /** @description ISO 8601 UTC */
            since: string;
            /** @constant */
            status: "scheduled";
            /** @description the moment of the request: later events were fanned out normally */
            until: string;
            webhook_id: string;
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
    getLedgerSigningKey: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerSigningKey"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalance: {
        parameters: {
            query?: {
                /** @description a moment: the answer is the ledger as it stood then */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Balance"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceCosignatures: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["LedgerCosignature"][];
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postBalanceCosignatures: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["LedgerCosignatureInput"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerCosignature"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceEntries: {
        parameters: {
            query?: {
                /** @description the entries as the ledger stood then (replayed from the ledger itself) */
                as_of?: string;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description created at or after */
                from?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                /** @description created before */
                to?: string;
                type?: "sale" | "settlement" | "refund" | "payout" | "payout_reversal";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["BalanceEntry"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceEntriesByEntryIdProof: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a balance entry's id, or the ledger entry's */
                entry_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerInclusionProof"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceProof: {
        parameters: {
            query?: {
                /** @description a moment: the answer is the ledger as it stood then */
                as_of?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceProof"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceProofConsistency: {
        parameters: {
            query: {
                /** @description the smaller tree size */
                from: number;
                /** @description the larger tree size (default: the ledger now) */
                to?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LedgerConsistencyProof"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getBalanceStatementsByMonth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description YYYY-MM, from 2000-01 to December of next year */
                month: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceStatement"];
                    "text/csv": string;
                    "text/html": string;
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getErrors: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            code: string;
                            status: number;
                            title: string;
                        }[];
                    };
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getFees: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FeeSchedule"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffers: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                product_id?: string;
                status?: "draft" | "active" | "inactive";
                stock_mode?: "uploaded" | "declared";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Offer"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description declared only; omit for uploaded */
                    declared_stock?: number;
                    /** @description declared only (uploaded offers deliver instantly) */
                    delivery_sla_minutes?: number;
                    /** @description declared only */
                    delivery_time?: string;
                    external_ref: string;
                    /** @description declared only; omit for uploaded */
                    fulfilment?: {
                        base_url: string;
                    };
                    /** @default 0 */
                    low_stock_threshold?: number;
                    price: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                    product_id: string;
                    /** @enum {string} */
                    stock_mode: "uploaded" | "declared";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchOffersByOfferId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description declared offers only */
                    delivery_sla_minutes?: number;
                    /** @description declared offers only */
                    delivery_time?: string;
                    external_ref?: string;
                    /** @description declared offers only */
                    fulfilment?: {
                        base_url: string;
                    };
                    low_stock_threshold?: number;
                    price?: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdActivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdCertification: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CertificationReport"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdDeactivate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdFulfilmentCheck: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description ISO 8601 UTC */
                        checked_at: string;
                        error?: string;
                        /** @description 0 when no HTTP answer came */
                        http_status: number;
                        latency_ms: number;
                        /** @enum {string} */
                        status: "ok" | "failed";
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdFulfilmentRotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferIdHealth: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HealthForecast"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferIdInventory: {
        parameters: {
            query?: {
                batch_id?: string;
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 4 characters a key's masked value ends with */
                last4?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                status?: "available" | "reserved" | "sold" | "withdrawn" | "invalidated" | "under_review" | "delivered";
            };
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["InventoryItem"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdInventory: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    items: ({
                        /** @enum {string} */
                        kind: "text";
                        /** @description 1 to 1,024 characters */
                        value: string;
                    } | {
                        /** @description at most 200 KB decoded; the bytes must match content_type */
                        content_base64: string;
                        /** @enum {string} */
                        content_type: "application/pdf" | "image/png" | "image/jpeg";
                        file_name: string;
                        /** @enum {string} */
                        kind: "file";
                    })[];
                    /**
                     * @default strict
                     * @enum {string}
                     */
                    mode?: "strict" | "partial";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        accepted: number;
                        item_ids: string[];
                        rejected: {
                            code: string;
                            index: number;
                            message: string;
                        }[];
                        stock_available: number;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOffersByOfferIdInventoryByItemId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item_id: string;
                        /** @enum {string} */
                        status: "removed";
                        stock_available: number;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdInventoryByItemIdReveal: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description a file's bytes */
                        content_base64: string | null;
                        item_id: string;
                        /** @enum {string} */
                        kind: "text" | "file";
                        /** @description a text key */
                        value: string | null;
                    };
                };
            };
            /** @description Problem: malformed_json */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdInventoryImports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the file's text */
                    content: string;
                    /** @default keys.txt */
                    file_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryImport"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferIdInventoryImportsByImportId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                import_id: string;
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryImport"];
                    "text/csv": string;
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdInventoryImportsPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the file's text */
                    content: string;
                    /** @default keys.txt */
                    file_name?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryImportPreview"];
                };
            };
            /** @description Problem: malformed_json */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOffersByOfferIdInventoryWithdrawals: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    item_ids: string[];
                } | {
                    batch_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item_ids: string[];
                        skipped: {
                            item_id: string;
                            status: ("available" | "reserved" | "sold" | "withdrawn" | "invalidated" | "under_review") | "unknown";
                        }[];
                        stock_available: number;
                        withdrawn: number;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putOffersByOfferIdPrice: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    price: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Offer"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferIdPricingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PricingRule"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putOffersByOfferIdPricingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description how far below the lowest competing price: {amount} in minor units or {percent} */
                    beat_by: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                    } | {
                        /** @description up to two decimals */
                        percent: number;
                    };
                    /** @description never above this */
                    ceiling: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                    /** @description never below this */
                    floor: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                    max_changes_per_hour: number;
                    /**
                     * @description with no routable competitor: `keep` the current price (moved into floor and ceiling if outside them), or go to the `ceiling`
                     * @default keep
                     * @enum {string}
                     */
                    when_alone?: "keep" | "ceiling";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PricingRule"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOffersByOfferIdPricingRule: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOffersByOfferIdRouting: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description routed at or after */
                from?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                /** @description routed before */
                to?: string;
            };
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RoutingEntry"][];
                        next_cursor: string | null;
                    };
                    "text/csv": string;
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putOffersByOfferIdStock: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                offer_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    declared_stock: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        declared_stock: number;
                        offer_id: string;
                        /** @description ISO 8601 UTC */
                        updated_at: string;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrders: {
        parameters: {
            query?: {
                created_from?: string;
                created_to?: string;
                /** @description next_cursor of the previous page */
                cursor?: string;
                external_ref?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                offer_id?: string;
                status?: "placed" | "paid" | "completed" | "expired" | "refunded" | "partially_refunded" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Order"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOrdersByOrderId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayoutDestinations: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["PayoutDestination"][];
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postPayoutDestinations: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["NewPayoutDestinationInput"];
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutDestination"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deletePayoutDestinationsByDestinationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchPayoutDestinationsByDestinationId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                destination_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {boolean} */
                    default: true;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutDestination"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayouts: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                status?: "pending" | "in_transit" | "paid" | "failed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Payout"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postPayouts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    amount: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                    destination_id?: string;
                    /** @enum {string} */
                    method?: "sepa_bank_transfer" | "paypal";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutWithEntries"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayoutsByPayoutId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutWithEntries"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postPayoutsByPayoutIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutWithEntries"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getPayoutsSchedule: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutSchedule"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putPayoutsSchedule: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    interval: "manual" | "daily" | "weekly";
                    /**
                     * @default sepa_bank_transfer
                     * @enum {string}
                     */
                    method?: "sepa_bank_transfer" | "paypal";
                    /** @description default and lowest: 2000 */
                    minimum_amount?: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["PayoutSchedule"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postPricingSimulate: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    price: {
                        /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                        amount: number;
                        /** @enum {string} */
                        currency: "EUR";
                    };
                    pricing_rule?: {
                        /** @description how far below the lowest competing price: {amount} in minor units or {percent} */
                        beat_by: {
                            /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                            amount: number;
                        } | {
                            /** @description up to two decimals */
                            percent: number;
                        };
                        /** @description never above this */
                        ceiling: {
                            /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                            amount: number;
                            /** @enum {string} */
                            currency: "EUR";
                        };
                        /** @description never below this */
                        floor: {
                            /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                            amount: number;
                            /** @enum {string} */
                            currency: "EUR";
                        };
                        max_changes_per_hour: number;
                        /**
                         * @description with no routable competitor: `keep` the current price (moved into floor and ceiling if outside them), or go to the `ceiling`
                         * @default keep
                         * @enum {string}
                         */
                        when_alone?: "keep" | "ceiling";
                    };
                    product_id: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        commission: components["schemas"]["Money"];
                        gross: components["schemas"]["Money"];
                        lowest_competing_price: components["schemas"]["Money"] | null;
                        net: components["schemas"]["Money"];
                        /** @description present when the request gave a pricing_rule */
                        pricing_rule?: {
                            /** @description whether the rule would change the price now */
                            changes: boolean;
                            from_price: components["schemas"]["Money"];
                            /**
                             * @description why: beats_lowest (the lowest competing price less the margin), held_by_floor, held_by_ceiling, alone_keeps (no competitor: the price stays), alone_ceiling (no competitor: the ceiling, as when_alone asks)
                             * @enum {string}
                             */
                            outcome: "beats_lowest" | "held_by_floor" | "held_by_ceiling" | "alone_keeps" | "alone_ceiling";
                            price: components["schemas"]["Money"];
                        };
                        /** @description 1 = routed first */
                        rank: number;
                        would_be_selected: boolean;
                    };
                };
            };
            /** @description Problem: malformed_json */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProducts: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Product"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProductsByProductId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Product"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getProductsByProductIdCompetition: {
        parameters: {
            query?: {
                /** @description minor units: 1 to 100000000 (1,000,000.00 EUR) */
                price?: number;
            };
            header?: never;
            path: {
                product_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Competition"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postSandboxOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    buyer_country: string;
                    form_fields?: {
                        [key: string]: string;
                    };
                    offer_id: string;
                    quantity: number;
                    /**
                     * @default paid
                     * @enum {string}
                     */
                    scenario?: "paid" | "abandoned" | "refunded" | "disputed";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookDeliveries: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                event_id?: string;
                event_type?: "order.created" | "order.expired" | "order.paid" | "order.refunded" | "order.disputed" | "offer.deactivated" | "offer.stock_low" | "offer.repriced" | "offer.health_warning" | "stock.invalidated" | "inventory.import_completed" | "webhook.disabled" | "payout.created" | "payout.paid" | "payout.failed" | "ledger.checkpoint";
                from?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                status?: "succeeded" | "failed";
                to?: string;
                webhook_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookDeliveryAttempt"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhookDeliveriesByDeliveryId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempt: number;
                        /** @description ISO 8601 UTC */
                        created_at: string;
                        delivery_id: string;
                        duration_ms: number;
                        error: string | null;
                        event_id: string;
                        event_type: string;
                        /** @description the attempt id */
                        id: string;
                        /**
                         * @description succeeded (2xx); http_error (another status, in response_status); connection_refused (nothing listens at the address); connection_failed; timeout; target_refused (an address the service may not call)
                         * @enum {string}
                         */
                        outcome: "succeeded" | "http_error" | "connection_refused" | "connection_failed" | "timeout" | "target_refused";
                        /** @description sent by POST /webhooks/{webhook_id}/recover */
                        recovered: boolean;
                        /** @description exactly the signed body */
                        request_body: string;
                        request_headers: {
                            [key: string]: string;
                        };
                        /** @description the first 4 KB */
                        response_body: string | null;
                        /** @description null when no HTTP answer came (outcome says why) */
                        response_status: number | null;
                        succeeded: boolean;
                        test_fire: boolean;
                        webhook_id: string;
                        /** @description the endpoint's URL (as it is now) */
                        webhook_url: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhookDeliveriesByDeliveryIdResend: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                delivery_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery_id: string;
                        duration_ms: number;
                        event_type: string;
                        /**
                         * @description succeeded (2xx); http_error (another status, in response_status); connection_refused (nothing listens at the address); connection_failed; timeout; target_refused (an address the service may not call)
                         * @enum {string}
                         */
                        outcome: "succeeded" | "http_error" | "connection_refused" | "connection_failed" | "timeout" | "target_refused";
                        /** @description 0 when no HTTP answer came (outcome says why) */
                        response_status: number;
                        succeeded: boolean;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhookListenSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default [
                     *       "*"
                     *     ]
                     */
                    events?: (("order.created" | "order.expired" | "order.paid" | "order.refunded" | "order.disputed" | "offer.deactivated" | "offer.stock_low" | "offer.repriced" | "offer.health_warning" | "stock.invalidated" | "inventory.import_completed" | "webhook.disabled" | "payout.created" | "payout.paid" | "payout.failed") | "*")[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookListenSession"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhookListenSessionsBySessionId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhookListenSessionsBySessionIdPoll: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                session_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    ack?: string[];
                    /** @default 0 */
                    wait_seconds?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookListenEvent"][];
                        /** @description ISO 8601 UTC */
                        lease_until: string;
                    };
                };
            };
            /** @description Problem: malformed_json */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhooks: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WebhookEndpoint"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhooks: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default  */
                    description?: string;
                    events: (("order.created" | "order.expired" | "order.paid" | "order.refunded" | "order.disputed" | "offer.deactivated" | "offer.stock_low" | "offer.repriced" | "offer.health_warning" | "stock.invalidated" | "inventory.import_completed" | "webhook.disabled" | "payout.created" | "payout.paid" | "payout.failed" | "ledger.checkpoint") | "*")[];
                    /** @description deliveries per second the sender keeps to; null: no limit */
                    rate_limit?: number | null;
                    url: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWebhooksByWebhookId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteWebhooksByWebhookId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            204: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchWebhooksByWebhookId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    description?: string;
                    events?: (("order.created" | "order.expired" | "order.paid" | "order.refunded" | "order.disputed" | "offer.deactivated" | "offer.stock_low" | "offer.repriced" | "offer.health_warning" | "stock.invalidated" | "inventory.import_completed" | "webhook.disabled" | "payout.created" | "payout.paid" | "payout.failed" | "ledger.checkpoint") | "*")[];
                    /** @description deliveries per second the sender keeps to; null: no limit */
                    rate_limit?: number | null;
                    /** @enum {string} */
                    status?: "active" | "disabled";
                    url?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhooksByWebhookIdRecover: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: date-time */
                    since: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            202: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookRecovery"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhooksByWebhookIdRotateSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WebhookEndpoint"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postWebhooksByWebhookIdTest: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                webhook_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @default order.paid
                     * @enum {string}
                     */
                    event?: "order.created" | "order.expired" | "order.paid" | "order.refunded" | "order.disputed" | "offer.deactivated" | "offer.stock_low" | "offer.repriced" | "offer.health_warning" | "stock.invalidated" | "inventory.import_completed" | "webhook.disabled" | "payout.created" | "payout.paid" | "payout.failed";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        delivery_id: string;
                        duration_ms: number;
                        event_type: string;
                        /**
                         * @description succeeded (2xx); http_error (another status, in response_status); connection_refused (nothing listens at the address); connection_failed; timeout; target_refused (an address the service may not call)
                         * @enum {string}
                         */
                        outcome: "succeeded" | "http_error" | "connection_refused" | "connection_failed" | "timeout" | "target_refused";
                        /** @description 0 when no HTTP answer came (outcome says why) */
                        response_status: number;
                        succeeded: boolean;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getWhoami: {
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
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @enum {string} */
                        environment: "sandbox" | "production";
                        supplier: {
                            id: string;
                            name: string;
                        };
                        token_id: string;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorInventoryByItemIdHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item_id: string;
                        offer_id: string;
                        status: string;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorInventoryByItemIdInvalidate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item_id: string;
                        offer_id: string;
                        previous_status: string;
                        /** @enum {string} */
                        status: "invalidated";
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorInventoryByItemIdRelease: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                item_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        item_id: string;
                        offer_id: string;
                        status: string;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOperatorKeyCollisions: {
        parameters: {
            query?: {
                /** @description next_cursor of the previous page */
                cursor?: string;
                /** @description 1 to 200, default 50 */
                limit?: number;
                open?: "true" | "false";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["KeyCollision"][];
                        next_cursor: string | null;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorOrders: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    buyer_country: string;
                    form_fields?: {
                        [key: string]: string;
                    };
                    items: {
                        product_id: string;
                        quantity: number;
                    }[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOperatorOrdersByOrderId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOperatorOrdersByOrderIdDeliverables: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        items: {
                            keys: ({
                                inventory_item_id: string;
                                /** @enum {string} */
                                kind: "text";
                                value: string;
                            } | {
                                content_base64: string;
                                content_type: string;
                                file_name: string;
                                inventory_item_id: string;
                                /** @enum {string} */
                                kind: "file";
                            })[];
                            order_item_id: string;
                        }[];
                        order_id: string;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorOrdersByOrderIdDispute: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description default: every item */
                    item_ids?: string[];
                    reason?: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorOrdersByOrderIdPay: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorOrdersByOrderIdRefund: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                order_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description default: every item */
                    item_ids?: string[];
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorPayoutsByPayoutIdCancel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorPayout"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorPayoutsByPayoutIdFailed: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        /** @description optional: a call without a body fails with could_not_process */
        requestBody: {
            content: {
                "application/json": {
                    /** @description e.g. account_closed, invalid_account_number */
                    failure_code?: string;
                } | null;
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorPayout"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorPayoutsByPayoutIdInTransit: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorPayout"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorPayoutsByPayoutIdPaid: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                payout_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OperatorPayout"];
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorProducts: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default [] */
                    form_fields?: components["schemas"]["FormFieldInput"][];
                    /** @default null */
                    key_format?: components["schemas"]["KeyFormatInput"] | null;
                    name: string;
                    platform: string;
                    region: string;
                    /** @enum {string} */
                    status: "sellable" | "not_sellable";
                    /** @enum {string} */
                    type: "game_key" | "topup";
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        form_fields: components["schemas"]["FormField"][];
                        id: string;
                        key_format: components["schemas"]["KeyFormat"] | null;
                        name: string;
                        platform: string;
                        region: string;
                        /** @enum {string} */
                        status: "sellable" | "not_sellable";
                        /** @enum {string} */
                        type: "game_key" | "topup";
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    patchOperatorProductsByProductId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                product_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    form_fields?: components["schemas"]["FormFieldInput"][];
                    key_format?: components["schemas"]["KeyFormatInput"] | null;
                    name?: string;
                    platform?: string;
                    region?: string;
                    /** @enum {string} */
                    status?: "sellable" | "not_sellable";
                    /** @enum {string} */
                    type?: "game_key" | "topup";
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        form_fields: components["schemas"]["FormField"][];
                        id: string;
                        key_format: components["schemas"]["KeyFormat"] | null;
                        name: string;
                        platform: string;
                        region: string;
                        /** @enum {string} */
                        status: "sellable" | "not_sellable";
                        /** @enum {string} */
                        type: "game_key" | "topup";
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorSuppliers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                };
            };
        };
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        supplier: {
                            id: string;
                            name: string;
                        };
                        token: string;
                        token_id: string;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    getOperatorSuppliersBySupplierIdRateLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                supplier_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bulk: number;
                        per_supplier: number;
                        reads: number;
                        simulate: number;
                        sync: number;
                        test: number;
                        writes: number;
                    };
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    putOperatorSuppliersBySupplierIdRateLimits: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                supplier_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    bulk?: number;
                    per_supplier?: number;
                    reads?: number;
                    simulate?: number;
                    sync?: number;
                    test?: number;
                    writes?: number;
                };
            };
        };
        responses: {
            /** @description Default Response */
            200: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        bulk: number;
                        per_supplier: number;
                        reads: number;
                        simulate: number;
                        sync: number;
                        test: number;
                        writes: number;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    postOperatorSuppliersBySupplierIdTokens: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                supplier_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Default Response */
            201: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        token: string;
                        token_id: string;
                    };
                };
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    deleteOperatorSuppliersBySupplierIdTokensByTokenId: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                supplier_id: string;
                token_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Problem: malformed_json, bad_request */
            400: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unauthorized */
            401: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: not_found, or a code the operation names */
            404: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_in_use, or a code the operation names */
            409: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: payload_too_large */
            413: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: unsupported_media_type */
            415: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: idempotency_key_reused, validation_failed, or a code the operation names */
            422: {
                headers: {
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
            /** @description Problem: rate_limited */
            429: {
                headers: {
                    /** @description seconds to wait */
                    "retry-after"?: number;
                    /** @description requests allowed per rolling 60 seconds in the tightest bucket */
                    "x-ratelimit-limit"?: number;
                    /** @description requests left in that bucket */
                    "x-ratelimit-remaining"?: number;
                    /** @description Unix seconds: end of the current window; on a 429, when a request passes again */
                    "x-ratelimit-reset"?: number;
                    /** @description equals trace_id of a problem; quote it when reporting */
                    "x-trace-id"?: string;
                    [name: string]: unknown;
                };
                content: {
                    "application/problem+json": components["schemas"]["Problem"];
                };
            };
        };
    };
    webhookInventoryImportCompleted: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    /** @description an import of a file of keys finished: its keys are in stock (GET …/inventory?batch_id=) */
                    data: {
                        added?: number;
                        batch_id?: string;
                        /** Format: date-time */
                        completed_at?: string;
                        import_id?: string;
                        offer_id?: string;
                        /** @description lines not added; the list: GET …/inventory/imports/{import_id} as text/csv */
                        refused?: number;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "inventory.import_completed";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookLedgerCheckpoint: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: components["schemas"]["BalanceProof"] & {
                        cosignatures: components["schemas"]["LedgerCosignature"][];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "ledger.checkpoint";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOfferDeactivated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        external_ref?: string;
                        offer_id?: string;
                        product_id?: string;
                        reason?: string;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "offer.deactivated";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOfferHealthWarning: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    /** @description one more failure brings the offer its next consequence (out of routing, a cooldown); sent once per approach (GET /offers/{offer_id}/health) */
                    data: {
                        /** @enum {string} */
                        consequence?: "leaves_routing" | "cooldown";
                        external_ref?: string;
                        failed_calls?: number | null;
                        failed_healthchecks?: number | null;
                        health?: number;
                        message?: string;
                        offer_id?: string;
                        product_id?: string;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "offer.health_warning";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOfferRepriced: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    /** @description the pricing rule changed the offer price */
                    data: {
                        external_ref?: string;
                        offer_id?: string;
                        previous_price?: components["schemas"]["Money"];
                        price?: components["schemas"]["Money"];
                        product_id?: string;
                        /** @enum {string} */
                        reason?: "pricing_rule";
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "offer.repriced";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOfferStockLow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        available?: number;
                        external_ref?: string;
                        offer_id?: string;
                        product_id?: string;
                        threshold?: number;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "offer.stock_low";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOrderCreated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        order: components["schemas"]["Order"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "order.created";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOrderDisputed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        disputed_item_ids?: string[];
                        order?: components["schemas"]["Order"];
                        reason?: string | null;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "order.disputed";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOrderExpired: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        order: components["schemas"]["Order"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "order.expired";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOrderPaid: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        order: components["schemas"]["Order"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "order.paid";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookOrderRefunded: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        order?: components["schemas"]["Order"];
                        refunded_item_ids?: string[];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "order.refunded";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookPayoutCreated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        payout: components["schemas"]["PayoutWithEntries"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "payout.created";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookPayoutFailed: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        payout: components["schemas"]["PayoutWithEntries"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "payout.failed";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookPayoutPaid: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        payout: components["schemas"]["PayoutWithEntries"];
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "payout.paid";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookStockInvalidated: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        item_id?: string;
                        offer_id?: string;
                        previous_status?: string;
                        reason?: string | null;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "stock.invalidated";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhookWebhookDisabled: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: {
            content: {
                "application/json": {
                    /** @constant */
                    api_version: "v1";
                    created_at: string;
                    data: {
                        consecutive_failures?: number;
                        disabled_at?: string;
                        /** @enum {string} */
                        reason?: "consecutive_failures" | "gone";
                        url?: string;
                        webhook_id?: string;
                    };
                    /** @description the dedupe key */
                    id: string;
                    /** @enum {unknown} */
                    mode: "live" | "test";
                    test_fire: boolean;
                    /** @constant */
                    type: "webhook.disabled";
                };
            };
        };
        responses: {
            /** @description any 2xx within 10 s is a success */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
