/**
 * Bodies larger than NATS's max_payload (1 MiB unless configured): a 1 MiB file written as base64, an exec answer
 * with two 1 MiB streams. The sender offers the body in parts on a fresh inbox subject, the small message it sends
 * names that subject, and the receiver pulls the parts in order. Bodies under the limit (nearly all) take one
 * message. Parts that can no longer be pulled (their peer is gone) end the request as `lost`, at once.
 *
 * An announcement is a promise anyone on the bus can make, so nothing is pulled or allocated before it is admitted:
 * the receiver's `admit` checks the message's tag, which names the body's size (bus-signature.ts
 * `checkBusAnnouncement`); one not admitted is handed on without its body, for the full check to refuse. Every
 * announcement, admitted or not, is held to `maxBusBodyBytes` and `maxBodyParts`, and the parts to what was announced.
 */
import { createInbox, type NatsConnection } from "@nats-io/nats-core";
import { BusFailure, BusRequestError, type AdmitBody, type BusMessage } from "./bus.js";
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
/**
 * The largest body the bus carries, either way: a reply is at most 8 MiB (tool-host.ts `maxReplyBytes`) and the
 * largest request is one stdio line of 8 MiB (HTTP bodies stop at 4 MB), plus room for the call's envelope.
 */
export const maxBusBodyBytes = 8 * 1024 * 1024 + 64 * 1024;
/** Parts per body: 9 at NATS's default max_payload of 1 MiB; this leaves room for a server with a smaller one. */
export const maxBodyParts = 256;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A body that fits goes as is; a bigger one is offered in parts on its own subject until pulled (or `ttlMs`). */
export function offerBody(
  connection: NatsConnection,
  data: Uint8Array,
  offer: { maxPayload: number; ttlMs: number; inboxPrefix: string },
  onError: (error: unknown) => void,
): OfferedBody {
  const { maxPayload, ttlMs } = offer;
  const partBytes = maxPayload - partsHeadroomBytes;
  if (data.byteLength <= partBytes) return { data, headers: {}, withdraw: () => {} };
  const count = Math.ceil(data.byteLength / partBytes);
  const subject = createInbox(offer.inboxPrefix);
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

/**
 * The whole body of a message sent in parts, pulled in order once admitted; any other message as it came. An
 * announcement over the limits fails as `too_large`; one `admit` refuses comes back with no body.
 */
export async function assembleBody(
  connection: NatsConnection,
  message: BusMessage,
  subject: string,
  admit?: AdmitBody,
): Promise<BusMessage> {
  const offer = message.headers[partsHeader];
  if (!offer) return message;
  const { [partsHeader]: _offer, ...headers } = message.headers;
  const [partsSubject = "", countText, totalText] = offer.split(" ");
  const count = Number(countText);
  const total = Number(totalText);
  // judged on the headers alone: an announcement not admitted is never pulled, whatever it claims
  if (admit && !admit(headers, total)) return { data: new Uint8Array(), headers };
  if (!Number.isSafeInteger(count) || !Number.isSafeInteger(total) || count < 1 || count > maxBodyParts || total < 0)
    throw new BusRequestError(BusFailure.tooLarge, subject);
  if (total > maxBusBodyBytes) throw new BusRequestError(BusFailure.tooLarge, subject);
  const data = new Uint8Array(total);
  let filled = 0;
  for (let index = 0; index < count; index++) {
    const part = await connection
      .request(partsSubject, encoder.encode(String(index)), { timeout: partTimeoutMs })
      .catch((error: unknown) => {
        // the peer offering the parts is gone (or cut off): the body is lost, not late
        const reason = failureOf(error);
        throw new BusRequestError(reason === BusFailure.timeout || reason === BusFailure.noResponders ? BusFailure.lost : reason, subject);
      });
    // a part past the announced size, or a body short of it, is not the body that was announced
    if (part.data.byteLength > total - filled) throw new BusRequestError(BusFailure.tooLarge, subject);
    data.set(part.data, filled);
    filled += part.data.byteLength;
  }
  if (filled !== total) throw new BusRequestError(BusFailure.lost, subject);
  return { data, headers };
}
