/**
 * The key of one node's agent RPC. It is derived from the boxes service's bus key the way service keys are derived
 * from the bus master (service-kit bus/bus-keys.ts: HMAC-SHA256 over a fixed label and the name):
 * `K_node = HMAC-SHA256(K_boxes, "bancada boxes node key v1\0" + node)`. The control plane holds `K_boxes` and so can
 * reach every node; an agent holds its own node's key only (BOXES_NODE_KEY, or `K_boxes` where the control plane runs
 * in the same process), so a taken-over machine can neither answer for another node nor call the boxes service as
 * the gateway. The messages are tagged and checked with service-kit's bus signatures: there is no second scheme.
 */
import { createHmac, createSecretKey } from "node:crypto";
import { BusKey, BusKeyError, type BusKeys } from "@bancada/service-kit";

const keyBytes = 32;

/** The scope a node key carries: what logs and errors name. */
const nodeKeyScope = (node: string): string => `boxes.node.${node}`;

/** The key of `node`'s agent, derived from the boxes service's key. */
export function deriveNodeKey(boxesKey: BusKey, node: string): BusKey {
  const secret = createHmac("sha256", Buffer.from(boxesKey.export(), "base64")).update(`bancada boxes node key v1\0${node}`).digest();
  return new BusKey(nodeKeyScope(node), createSecretKey(secret));
}

/**
 * The key an agent of `node` uses: BOXES_NODE_KEY when given (a machine that runs the agent alone), else derived from
 * the boxes key this process holds (one process, or an agent beside the control plane).
 */
export function agentNodeKey(keys: BusKeys, node: string, given: string | undefined): BusKey {
  if (given) {
    const bytes = Buffer.from(given.trim(), "base64");
    if (bytes.length !== keyBytes)
      throw new BusKeyError(
        `BOXES_NODE_KEY: must be ${keyBytes} bytes as base64: run 'bancada boxes node-key ${node}' where the boxes key is held.`,
      );
    return new BusKey(nodeKeyScope(node), createSecretKey(bytes));
  }
  return deriveNodeKey(keys.for("boxes"), node);
}

/**
 * The key a node's transfer URLs are signed with when the deployment sets no BOXES_SIGNING_KEY:
 * `HMAC-SHA256(K_node, "bancada boxes transfer key v1")`. The node derives it from its own key, and any control-plane
 * replica from the boxes key (through `deriveNodeKey`), so a URL minted by any replica opens on the box's node only.
 */
export function transferKey(nodeKey: BusKey): Buffer {
  return createHmac("sha256", Buffer.from(nodeKey.export(), "base64")).update("bancada boxes transfer key v1").digest();
}
