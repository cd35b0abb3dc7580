// Command loopmodel is a scripted model behind a loopback HTTP server that
// speaks the Anthropic Messages API (streaming): the model bench/longsess
// runs synaps against, so that synaps's own cost includes encoding and
// sending requests as it does with a real service.
//
//	loopmodel -calls N -per K -path FILE
//
// It answers each request with a tool call (`read` of FILE), and after
// every K calls, and after the N-th, with a short text: one user message's
// worth of work ends there. It prints its base URL on stdout, reads each
// request body whole (as a service would), and exits when stdin closes.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
)

func main() {
	calls := flag.Int("calls", 100, "tool calls in all")
	per := flag.Int("per", 49, "tool calls per user message")
	path := flag.String("path", "f.txt", "the file each call reads")
	flag.Parse()

	var mu sync.Mutex
	done, sinceText := 0, 0
	http.HandleFunc("/v1/messages", func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		mu.Lock()
		tool := done < *calls && sinceText < *per
		if tool {
			done++
			sinceText++
		} else {
			sinceText = 0
		}
		n := done
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		ev := func(name, data string) { fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data) }
		ev("message_start", `{"type":"message_start","message":{"id":"msg","type":"message","role":"assistant","content":[],"model":"loop","stop_reason":null,"usage":{"input_tokens":100,"output_tokens":1}}}`)
		stop := "end_turn"
		if tool {
			ev("content_block_start", fmt.Sprintf(`{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"toolu_%06d","name":"read","input":{}}}`, n))
			ev("content_block_delta", fmt.Sprintf(`{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":%q}}`, fmt.Sprintf(`{"path":%q}`, *path)))
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
			stop = "tool_use"
		} else {
			ev("content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`)
			ev("content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ok"}}`)
			ev("content_block_stop", `{"type":"content_block_stop","index":0}`)
		}
		ev("message_delta", fmt.Sprintf(`{"type":"message_delta","delta":{"stop_reason":%q,"stop_sequence":null},"usage":{"output_tokens":10}}`, stop))
		ev("message_stop", `{"type":"message_stop"}`)
	})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Printf("http://%s\n", ln.Addr())
	go func() { io.Copy(io.Discard, os.Stdin); os.Exit(0) }()
	http.Serve(ln, nil)
}
