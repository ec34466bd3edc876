package fleet

import (
	"context"
	"errors"
	"fmt"
	"net/url"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
)

// ListError is the error of a run that could not list the nodes
// (ListNodes' error): what the API server at host said, or that it could not
// be reached, the server and the message without credentials.
func ListError(host string, err error) error {
	server := RedactURL(host)
	msg := Redact(err.Error())
	switch {
	case apierrors.IsForbidden(err):
		return fmt.Errorf("the API server at %s refused to list nodes: the user needs list and get on nodes and get on nodes/proxy (deploy/rbac.yaml): %s", server, msg)
	case apierrors.IsUnauthorized(err):
		return fmt.Errorf("the API server at %s did not accept the credentials: %s", server, msg)
	}
	var se apierrors.APIStatus
	if errors.As(err, &se) {
		return fmt.Errorf("the API server at %s could not list nodes: %s", server, msg)
	}
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted")
	}
	return fmt.Errorf("cannot reach the API server at %s: %s", server, msg)
}

// RedactURL is host without user information.
func RedactURL(host string) string {
	u, err := url.Parse(host)
	if err != nil || u.Host == "" {
		return Redact(host)
	}
	u.User = nil
	return u.String()
}
