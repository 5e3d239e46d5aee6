import type { VenueId } from "../../model/types";
import { backpackStream } from "./backpack";
import { bitmexStream } from "./bitmex";
import { coinexStream } from "./coinex";
import { deribitStream } from "./deribit";
import { grvtStream } from "./grvt";
import { htxStream } from "./htx";
import { kucoinfuturesStream } from "./kucoinfutures";
import { mexcStream } from "./mexc";
import { phemexStream } from "./phemex";
import type { VenueStreamProtocol } from "./stream-protocol";
import { wooStream } from "./woo";

/** The stream protocols of these venues, by venue; a venue absent here is polled. */
export const STREAM_PROTOCOLS_B: Partial<Record<VenueId, VenueStreamProtocol>> = {
  mexc: mexcStream,
  kucoinfutures: kucoinfuturesStream,
  htx: htxStream,
  deribit: deribitStream,
  coinex: coinexStream,
  phemex: phemexStream,
  woo: wooStream,
  grvt: grvtStream,
  backpack: backpackStream,
  bitmex: bitmexStream,
};
