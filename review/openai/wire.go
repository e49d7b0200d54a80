package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/gitctx/gitctx/review"
	"github.com/gitctx/gitctx/review/internal/retry"
)

// chatRequest is the part of a Chat Completions request gitctx sends.
type chatRequest struct {
	Model               string    `json:"model"`
	Messages            []message `json:"messages"`
	MaxCompletionTokens int       `json:"max_completion_tokens,omitempty"`
	MaxTokens           int       `json:"max_tokens,omitempty"`
}

type message struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

func (c *Client) chatRequest(req review.Request) chatRequest {
	cr := chatRequest{Model: req.Model}
	if req.System != "" {
		cr.Messages = append(cr.Messages, message{Role: "system", Content: req.System})
	}
	cr.Messages = append(cr.Messages, message{Role: "user", Content: req.Prompt})
	if req.MaxOutputTokens > 0 {
		if c.kind == KindOpenAI || c.azure {
			cr.MaxCompletionTokens = req.MaxOutputTokens
		} else {
			cr.MaxTokens = req.MaxOutputTokens
		}
	}
	return cr
}

// chatResponse is the part of a chat.completion object gitctx reads.
type chatResponse struct {
	Model   string `json:"model"`
	Choices []struct {
		Message struct {
			Content string `json:"content"`
			Refusal string `json:"refusal"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
	Usage struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
	} `json:"usage"`
	// Error is set by some compatible servers that answer 200 to a failure.
	Error *struct {
		Message string `json:"message"`
	} `json:"error"`
}

// parseAnswer reads a chat.completion; model is the one asked for, used
// when the server does not say which answered.
func parseAnswer(raw []byte, model string) (review.Answer, error) {
	var resp chatResponse
	if err := json.Unmarshal(raw, &resp); err != nil {
		return review.Answer{}, retry.DecodeError(raw, err)
	}
	if len(resp.Choices) == 0 {
		why := "the answer has no choices"
		if resp.Error != nil && resp.Error.Message != "" {
			why += " (the server says: " + resp.Error.Message + ")"
		}
		return review.Answer{}, errNoText(why)
	}
	choice := resp.Choices[0]
	ans := review.Answer{
		Text:      choice.Message.Content,
		Model:     resp.Model,
		Usage:     review.Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens},
		Truncated: choice.FinishReason == "length",
	}
	if ans.Model == "" {
		ans.Model = model
	}
	if choice.FinishReason == "content_filter" {
		// what came before the filter stopped it reads as a whole review
		return review.Answer{}, errNoText("the provider's content filter stopped the answer (finish reason \"content_filter\"); a part of a review is not posted as one")
	}
	if strings.TrimSpace(ans.Text) != "" {
		return ans, nil
	}
	switch {
	case choice.Message.Refusal != "":
		return review.Answer{}, errNoText("the model refused: " + choice.Message.Refusal)
	case ans.Truncated:
		return review.Answer{}, errNoText("the output limit was reached before any text (a reasoning model's thinking counts against it)")
	}
	return review.Answer{}, errNoText("finish reason " + fmt.Sprintf("%q", choice.FinishReason))
}
