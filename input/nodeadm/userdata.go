package nodeadm

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/mail"
	"strings"
)

// part is one NodeConfig document nodeadm decodes: the whole file, or one
// part of MIME multi-part user data.
type part struct {
	data []byte
	// line is the file's line the data starts on (1 for a whole file).
	line int
	// header is the line of the part's Content-Type header (0 for a whole
	// file); encoded is set when the part's bytes are not the file's
	// (base64, gzip, quoted-printable): positions inside it fall back to
	// header.
	header  int
	encoded bool
}

// ignoredPart is a part of the user data nodeadm skips that holds what looks
// like a NodeConfig.
type ignoredPart struct {
	header      int
	contentType string
}

// errNoConfigInUserData is configprovider/userdata.go's ErrNoConfigInUserData.
var errNoConfigInUserData = errors.New("could not find NodeConfig within UserData")

// parseMaybeMultipart is configprovider/mime.go ParseMaybeMultipart
// (v20260724): data that reads as a MIME message of a multipart/* type is
// user data, whose parts of type application/node.eks.aws are NodeConfigs
// (each base64-decoded and gunzipped when it is so encoded), in order; parts
// of any other type (shell scripts, cloud-config) are skipped. Anything else
// is one NodeConfig.
func parseMaybeMultipart(data []byte) (parts []part, ignored []ignoredPart, multi bool, err error) {
	r, boundary, err := multipartReader(data)
	if err != nil {
		return []part{{data: data, line: 1}}, nil, false, nil
	}
	starts := partStarts(data, boundary)
	for i := 0; ; i++ {
		p, err := r.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, nil, true, err
		}
		var at partStart
		if i < len(starts) {
			at = starts[i]
		}
		header := p.Header.Get("Content-Type")
		if header == "" {
			continue
		}
		mediaType, _, err := mime.ParseMediaType(header)
		if err != nil {
			return nil, nil, true, err
		}
		body, err := io.ReadAll(p)
		if err != nil {
			return nil, nil, true, err
		}
		if mediaType != nodeConfigMediaType {
			if bytes.Contains(body, []byte("kind: "+kindNodeConfig)) || bytes.Contains(body, []byte(`"kind": "`+kindNodeConfig)) {
				ignored = append(ignored, ignoredPart{header: at.header, contentType: header})
			}
			continue
		}
		raw := body
		body = decodeIfBase64(body)
		if body, err = decompressIfGZIP(body); err != nil {
			return nil, nil, true, err
		}
		pt := part{data: body, line: at.body, header: at.header}
		// The part's bytes are the file's when they stand there as they are
		// (multipart strips only the line break before the boundary).
		pt.encoded = !bytes.Equal(raw, body) || at.body == 0 || !bytes.HasPrefix(at.raw, body)
		parts = append(parts, pt)
	}
	if len(parts) == 0 {
		return nil, ignored, true, errNoConfigInUserData
	}
	return parts, ignored, true, nil
}

// multipartReader is mime.go getMultipartReader.
func multipartReader(data []byte) (*multipart.Reader, string, error) {
	msg, err := mail.ReadMessage(bytes.NewReader(data))
	if err != nil {
		return nil, "", err
	}
	mediaType, params, err := mime.ParseMediaType(msg.Header.Get("Content-Type"))
	if err != nil {
		return nil, "", err
	}
	if !strings.HasPrefix(mediaType, "multipart/") {
		return nil, "", fmt.Errorf("MIME type is not multipart")
	}
	return multipart.NewReader(msg.Body, params["boundary"]), params["boundary"], nil
}

// partStart is where a part stands in the file: its Content-Type header's
// line, its body's first line and the file's bytes from there.
type partStart struct {
	header, body int
	raw          []byte
}

// partStarts finds the parts of multipart data by their delimiter lines
// ("--boundary", RFC 2046 5.1.1, as mime/multipart reads them), in order:
// only for positions; what the parts hold is mime/multipart's.
func partStarts(data []byte, boundary string) []partStart {
	lines := bytes.SplitAfter(data, []byte("\n"))
	delim := "--" + boundary
	var out []partStart
	offset := 0
	offsets := make([]int, len(lines)+1)
	for i, l := range lines {
		offsets[i] = offset
		offset += len(l)
	}
	offsets[len(lines)] = offset
	// mail.ReadMessage: the message body starts after the headers' blank line.
	i := 0
	for ; i < len(lines); i++ {
		if strings.TrimRight(string(lines[i]), "\r\n") == "" {
			break
		}
	}
	for ; i < len(lines); i++ {
		l := strings.TrimRight(string(lines[i]), " \t\r\n")
		if l == delim+"--" {
			break
		}
		if l != delim {
			continue
		}
		ps := partStart{}
		j := i + 1
		for ; j < len(lines); j++ {
			h := strings.TrimRight(string(lines[j]), "\r\n")
			if h == "" {
				break
			}
			if k := strings.IndexByte(h, ':'); k > 0 && strings.EqualFold(strings.TrimSpace(h[:k]), "Content-Type") {
				ps.header = j + 1
			}
		}
		if j+1 <= len(lines) {
			ps.body = j + 2
			if j+1 < len(lines) {
				ps.raw = data[offsets[j+1]:]
			}
		}
		out = append(out, ps)
		i = j
	}
	return out
}

// decodeIfBase64 is configprovider/encoding.go decodeIfBase64: data that is
// not standard base64 is kept as it is.
func decodeIfBase64(data []byte) []byte {
	e := base64.StdEncoding
	decoded := make([]byte, e.DecodedLen(len(data)))
	n, err := e.Decode(decoded, data)
	if err != nil {
		return data
	}
	return decoded[:n]
}

// decompressIfGZIP is configprovider/encoding.go decompressIfGZIP.
func decompressIfGZIP(data []byte) ([]byte, error) {
	if len(data) < 2 || data[0] != 0x1f || data[1] != 0x8b {
		return data, nil
	}
	r, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("failed to create GZIP reader: %v", err)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("failed to read from GZIP reader: %v", err)
	}
	return out, nil
}
