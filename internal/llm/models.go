package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// ModelLister is a Provider that can say which models it serves (/model
// lists them). Both services answer GET …/models with {"data": [{"id":
// …}]}; an OpenAI-compatible server (Ollama, llama.cpp, vLLM) lists what
// it has loaded.
type ModelLister interface {
	ListModels(ctx context.Context) ([]string, error)
}

// maxModelList bounds the body of a model list read.
const maxModelList = 4 << 20

// GetModelList GETs url with header and returns the ids of its "data"
// array. Errors name the URL.
func GetModelList(ctx context.Context, client *http.Client, url string, header http.Header) ([]string, error) {
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, fmt.Errorf("listing models at %s: %w", url, err)
	}
	req.Header = header
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("listing models at %s: %w", url, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelList))
	if err != nil {
		return nil, fmt.Errorf("listing models at %s: %w", url, err)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("listing models at %s: HTTP %d", url, resp.StatusCode)
	}
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("listing models at %s: the answer is not a model list: %v", url, err)
	}
	ids := make([]string, 0, len(list.Data))
	for _, m := range list.Data {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	return ids, nil
}
