package rpc

import (
	"encoding/json"
	"errors"
)

func asDecodeError(err error, de **DecodeError) bool { return errors.As(err, de) }

func jsonValid(b []byte) bool { return json.Valid(b) }
