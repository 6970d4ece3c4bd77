/*
 * The frames between the handoff daemon and actshare-clipboard-agent: their one
 * specification. The agent's C (channel.c, frames.c) and the daemon's Swift
 * (Sources/ActShareDaemon/Clipboard/AgentFrame.swift, ClipboardAgent.swift) implement it;
 * Tests/Fixtures/AgentFrames holds golden frames written from this text by a third hand,
 * which both must read alike (the C through actshare-agent-frame-dump), and which the
 * daemon's own frames must equal byte for byte.
 *
 * The agent runs with a socket on its standard input and output. Each way, a frame is
 *
 *   u32  header length, big-endian: 1 to AGENT_MAX_HEADER
 *   ...  the header: one JSON object, UTF-8, with a string "type"
 *   u32  data length, big-endian: at most what the reader allows, the clipboard's
 *        limit (config handoff.clipboard-max; the agent is told it by `--max BYTES`)
 *        and, for the daemon, a little more
 *   ...  the data
 *
 * A frame longer than the reader allows, a header that is not a JSON object, or an end in
 * the middle of a frame ends the conversation. Keys not named below are ignored, and so are
 * frames of a type not named below, either way.
 *
 * From the agent to the daemon (json-c writes keys in the order given here):
 *
 *   ready         {"display"}                  once, when it watches the display named
 *   changed       {"push", "secret", ["hint-unread",] "too-large", "total", "targets"}
 *                                              what a new owner holds (watch mode), or
 *                                              what a `read` found ("push": true). Each
 *                                              target is {"name", "size", ["hash"]}
 *                                              (hex SHA-256, left out when too large); the
 *                                              data is the targets' bytes one after another
 *                                              in that order, none when "too-large" or
 *                                              "secret" (then "targets" is empty)
 *   changed       {"push", "unanswered": true} the owner did not answer in time
 *   changed       {"targets": []}              no one owns the clipboard now
 *   owner-changed {}                           manual mode: only that the owner changed
 *   fetch         {"offer", "hash", "target"}  an application pastes target of offer:
 *                                              the daemon answers with `data`
 *   owned         {"offer", "ok"}              whether it took the clipboard for offer
 *   released      {"offer"}                    another owner took it from offer
 *
 * From the daemon to the agent (keys sorted, as Swift's encoder writes them):
 *
 *   read          {}                           read the clipboard now (`handoff clipboard push`)
 *   own           {"offer", "targets"}         take the clipboard for offer; each target
 *                                              {["any-size": true,] "hash", "name", "size"}
 *                                              ("any-size": made when fetched, a list of
 *                                              files, of any size)
 *   release       {"offer"}                    give the clipboard up if offer holds it
 *   data          {"hash", "more": true, "offer"}  a piece of a fetched target; more follow
 *   data          {"hash", "offer", "ok"}      its last piece, or none ("ok": false: the
 *                                              other device could not give it)
 */
#ifndef ACTSHARE_AGENT_PROTOCOL_H
#define ACTSHARE_AGENT_PROTOCOL_H

/* A frame's header (JSON) is at most this long, either way. */
#define AGENT_MAX_HEADER (64u << 10)

#endif
