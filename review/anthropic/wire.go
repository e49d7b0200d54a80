package anthropic

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/internal/retry"
)

// messagesRequest is the part of a Messages request gitctx sends.
type messagesRequest struct {
	Model     string    `json:"model"`
	MaxTokens int       `json:"max_tokens"`
	System    string    `json:"system,omitempty"`
	Messages  []message `json:"messages"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func newMessagesRequest(req review.Request) messagesRequest {
	limit := req.MaxOutputTokens
	if limit <= 0 {
		limit = DefaultMaxTokens
	}
	return messagesRequest{
		Model:     req.Model,
		MaxTokens: limit,
		System:    req.System,
		Messages:  []message{{Role: "user", Content: req.Prompt}},
	}
}

// messagesResponse is the part of a message object gitctx reads.
type messagesResponse struct {
	Model   string `json:"model"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		InputTokens              int `json:"input_tokens"`
		OutputTokens             int `json:"output_tokens"`
		CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	} `json:"usage"`
}

// parseAnswer reads a message; model is the one asked for, used when the
// answer does not say which answered.
func parseAnswer(raw []byte, model string) (review.Answer, error) {
	var resp messagesResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return review.Answer{}, retry.DecodeError(raw, err)
	}
	var text strings.Builder
	for _, block := range resp.Content {
		if block.Type == "text" {
			text.WriteString(block.Text)
		}
	}
	u := resp.Usage
	ans := review.Answer{
		Text:      text.String(),
		Model:     resp.Model,
		Usage:     review.Usage{InputTokens: u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens, OutputTokens: u.OutputTokens},
		Truncated: resp.StopReason == "max_tokens",
	}
	if ans.Model == "" {
		ans.Model = model
	}
	if resp.StopReason == "refusal" && strings.TrimSpace(ans.Text) != "" {
		// what came before the refusal reads as a whole review
		return review.Answer{}, fmt.Errorf("the model stopped, refusing to go on (stop reason \"refusal\"); a part of a review is not posted as one: %w", review.ErrNoAnswer)
	}
	if strings.TrimSpace(ans.Text) != "" {
		return ans, nil
	}
	switch resp.StopReason {
	case "refusal":
		return review.Answer{}, fmt.Errorf("the model refused to answer: %w", review.ErrNoAnswer)
	case "max_tokens":
		return review.Answer{}, fmt.Errorf("the output limit was reached before any text: %w", review.ErrNoAnswer)
	}
	return review.Answer{}, fmt.Errorf("stop reason %q: %w", resp.StopReason, review.ErrNoAnswer)
}
