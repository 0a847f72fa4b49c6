/**
 * Bodies larger than NATS's max_payload (1 MiB unless configured): a 1 MiB file written as base64, an exec answer
 * with two 1 MiB streams. The sender offers the body in parts on a fresh inbox subject, the small message it sends
 * names that subject, and the receiver pulls the parts in order. Bodies under the limit (nearly all) take one
 * message. Parts that can no longer be pulled (their peer is gone) end the request as `lost`, at once.
 */
import { createInbox, type NatsConnection } from "@nats-io/nats-core";
import { BusFailure, BusRequestError, type BusMessage } from "./bus.js";
import { failureOf } from "./nats-requests.js";

export interface OfferedBody {
  data: Uint8Array;
  headers: Record<string, string>;
  withdraw: () => void;
}

const partsHeader = "bancada-parts";
/** Room left in each part for the protocol line and headers. */
const partsHeadroomBytes = 16 * 1024;
const partTimeoutMs = 10_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A body that fits goes as is; a bigger one is offered in parts on its own subject until pulled (or `ttlMs`). */
export function offerBody(
  connection: NatsConnection,
  data: Uint8Array,
  maxPayload: number,
  ttlMs: number,
  onError: (error: unknown) => void,
): OfferedBody {
  const partBytes = maxPayload - partsHeadroomBytes;
  if (data.byteLength <= partBytes) return { data, headers: {}, withdraw: () => {} };
  const count = Math.ceil(data.byteLength / partBytes);
  const subject = createInbox();
  let served = 0;
  const subscription = connection.subscribe(subject, {
    callback: (error, msg) => {
      if (error) return onError(error);
      const index = Number(decoder.decode(msg.data));
      msg.respond(data.subarray(index * partBytes, (index + 1) * partBytes));
      if (++served >= count) withdraw();
    },
  });
  const timer = setTimeout(() => withdraw(), ttlMs).unref();
  const withdraw = () => {
    clearTimeout(timer);
    if (!subscription.isClosed()) subscription.unsubscribe();
  };
  return { data: new Uint8Array(), headers: { [partsHeader]: `${subject} ${count} ${data.byteLength}` }, withdraw };
}

/** The whole body of a message sent in parts, pulled in order; any other message as it came. */
export async function assembleBody(connection: NatsConnection, message: BusMessage, subject: string): Promise<BusMessage> {
  const offer = message.headers[partsHeader];
  if (!offer) return message;
  const [partsSubject = "", count, total] = offer.split(" ");
  const data = new Uint8Array(Number(total));
  let filled = 0;
  for (let index = 0; index < Number(count); index++) {
    const part = await connection
      .request(partsSubject, encoder.encode(String(index)), { timeout: partTimeoutMs })
      .catch((error: unknown) => {
        // the peer offering the parts is gone (or cut off): the body is lost, not late
        const reason = failureOf(error);
        throw new BusRequestError(reason === BusFailure.timeout || reason === BusFailure.noResponders ? BusFailure.lost : reason, subject);
      });
    data.set(part.data, filled);
    filled += part.data.byteLength;
  }
  const { [partsHeader]: _offer, ...headers } = message.headers;
  return { data, headers };
}
